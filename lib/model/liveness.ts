import type { ServiceState } from './hostState.js';

/**
 * Nova's servicegroup DB driver: a service is up unless forced down and, when its last heartbeat is
 * known, only if that was within `service_down_time` seconds of `now`. Without a heartbeat time the
 * service's own `up` flag stands.
 */
export function serviceIsUp(
  service: Pick<ServiceState, 'up' | 'forced_down' | 'last_seen_up'>,
  now: Date,
  downTimeSeconds: number,
): boolean {
  if (service.forced_down) return false;
  if (service.last_seen_up) {
    const seen = Date.parse(service.last_seen_up);
    if (!Number.isNaN(seen)) return Math.abs(now.getTime() - seen) <= downTimeSeconds * 1000;
  }
  return service.up;
}

/**
 * A stored host's service record with its report as the heartbeat: a report is the collector seeing
 * the host, so the host was last seen up no later than its report (or earlier, if the report says so).
 * Read with serviceIsUp, a host whose reports stopped counts as down after `service_down_time`.
 */
export function withReportHeartbeat(service: ServiceState, reportedAt: string): ServiceState {
  // A service reported down stays down; a heartbeat time would otherwise override its flag.
  if (!service.up) return service;
  const reported = Date.parse(reportedAt);
  if (Number.isNaN(reported)) return service;
  const seen = service.last_seen_up ? Date.parse(service.last_seen_up) : Number.NaN;
  if (!Number.isNaN(seen) && seen <= reported) return service;
  return { ...service, last_seen_up: reportedAt };
}
