import { serviceIsUp } from '../../model/liveness.js';
import { defineFilter } from '../filter.js';
import type { HostGrouping } from '../hostGroups.js';

/** Fleet shares equal service records, so this is usually a handful of groups. */
const BY_SERVICE: HostGrouping = { id: 'service', keys: [(h) => h.service] };

/**
 * Passes hosts whose nova-compute service is enabled and up. Liveness comes from the host's
 * `service.up`, or from `last_seen_up` within `[DEFAULT] service_down_time` when that is given.
 */
export const ComputeFilter = defineFilter({
  name: 'ComputeFilter',
  runFilterOncePerRequest: true,
  hostPasses: (host, _spec, _state, ctx) =>
    !host.service.disabled && serviceIsUp(host.service, ctx.now, ctx.config.DEFAULT.service_down_time),
  groupedBy: () => BY_SERVICE,
  explain: (host, _spec, _state, ctx) => {
    if (host.service.disabled) {
      const why = host.service.disabled_reason ? ` (${host.service.disabled_reason})` : '';
      return `nova-compute on ${host.host} is disabled${why}; enable the service to schedule here`;
    }
    if (host.service.forced_down) return `nova-compute on ${host.host} is forced down`;
    return `nova-compute on ${host.host} is down (no heartbeat within service_down_time=${ctx.config.DEFAULT.service_down_time}s)`;
  },
});
