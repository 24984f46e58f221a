import type { ServiceState } from './hostState.js';

/**
 * Nova's servicegroup DB driver: a service is up unless forced down and, when its last heartbeat is
 * known, only if that was within `service_down_time` seconds of `now`. Without a heartbeat time the
 * service's own `up` flag stands.
 */
export function serviceIsUp(
  service: Pick<ServiceState, 'up' | 'forced_down' | 'last_seen_up' | 'report_interval_seconds'>,
  now: Date,
  downTimeSeconds: number,
): boolean {
  if (service.forced_down) return false;
  if (service.last_seen_up) {
    const seen = Date.parse(service.last_seen_up);
    if (!Number.isNaN(seen)) {
      const silentMs = Math.abs(now.getTime() - seen) - (service.report_interval_seconds ?? 0) * 1000;
      return silentMs <= downTimeSeconds * 1000;
    }
  }
  return service.up;
}

/**
 * How long a report vouches for its host: the agent's and collector's default interval. Counting
 * `service_down_time` from the report itself would read a whole fleet reporting once a minute as
 * down for the last seconds before every report (Nova's default window is also 60 s).
 */
export const REPORT_INTERVAL_SECONDS = 60;

/**
 * A stored host's service record with its report as the heartbeat: a report is the collector seeing
 * the host, so the host was last seen up no later than its report (or earlier, if the report says so).
 * Read with serviceIsUp, a host whose reports stopped counts as down `service_down_time`
 * after its next report was due.
 */
export function withReportHeartbeat(service: ServiceState, reportedAt: string): ServiceState {
  // A service reported down stays down; a heartbeat time would otherwise override its flag.
  if (!service.up) return service;
  const reported = Date.parse(reportedAt);
  if (Number.isNaN(reported)) return service;
  const seen = service.last_seen_up ? Date.parse(service.last_seen_up) : Number.NaN;
  // Whatever the heartbeat, the store learns of it only once a report interval.
  const lastSeen = !Number.isNaN(seen) && seen <= reported ? service.last_seen_up : reportedAt;
  return { ...service, last_seen_up: lastSeen, report_interval_seconds: REPORT_INTERVAL_SECONDS };
}

/**
 * A service record whose heartbeat is `reportedAt` (withReportHeartbeat's, or an earlier
 * sighting's), moved on to a later sighting of the same state at `seenAt` (a report ingest did not
 * rewrite because only its time changed). Only when the report was the heartbeat: a heartbeat the
 * report itself carried, or a service reported down, is what the unchanged later reports said too.
 * Never moves the heartbeat backwards.
 */
export function withSighting(
  service: ServiceState,
  reportedAt: string,
  seenAt: string | undefined,
): ServiceState {
  if (seenAt === undefined || !service.up || service.last_seen_up !== reportedAt) return service;
  const seen = Date.parse(seenAt);
  if (Number.isNaN(seen) || seen <= Date.parse(reportedAt)) return service;
  return { ...service, last_seen_up: seenAt };
}
