import { serviceIsUp } from '../../model/liveness.js';
import { defineFilter, PASS, reject } from '../filter.js';

const DISABLED = reject((host) => {
  const why = host.service.disabled_reason ? ` (${host.service.disabled_reason})` : '';
  return `nova-compute on ${host.host} is disabled${why}; enable the service to schedule here`;
});
const FORCED_DOWN = reject((host) => `nova-compute on ${host.host} is forced down`);
const DOWN = reject(
  (host, _spec, _state, ctx) =>
    `nova-compute on ${host.host} is down (no heartbeat within service_down_time=${ctx.config.DEFAULT.service_down_time}s)`,
);

/**
 * Passes hosts whose nova-compute service is enabled and up. Liveness comes from the host's
 * `service.up`, or from `last_seen_up` within `[DEFAULT] service_down_time` when that is given.
 */
export const ComputeFilter = defineFilter({
  name: 'ComputeFilter',
  runFilterOncePerRequest: true,
  check: (host, _spec, _state, ctx) => {
    const { service } = host;
    if (service.disabled) return DISABLED;
    if (serviceIsUp(service, ctx.now, ctx.config.DEFAULT.service_down_time)) return PASS;
    return service.forced_down ? FORCED_DOWN : DOWN;
  },
});
