/**
 * How far back readers look for host sightings (hostSightings.ts): far enough that a host whose
 * newest report was only sighted is up for as long as ComputeFilter's `service_down_time` allows.
 */
import { OPTIONS } from '../config/options.js';
import { ConfigError } from '../model/errors.js';
import { REPORT_INTERVAL_SECONDS } from '../model/liveness.js';

/** What the lookback is derived from (StoreOptions), when it is not given outright. */
export interface LivenessWindow {
  /** Nova's `[DEFAULT] service_down_time` (s) the store's readers judge liveness by; Nova's 60 by default. */
  serviceDownTimeSeconds?: number;
  /** How often hosts report (s); REPORT_INTERVAL_SECONDS by default. */
  reportIntervalSeconds?: number;
}

/**
 * A sighting is keyed by when ingest wrote it, which trails the report by the queue's delay and
 * may differ from the reader's clock by a minute: this much more is read.
 */
export const SIGHTING_MARGIN_MS = 3 * 60_000;

/**
 * A report vouches for its host for a report interval plus `service_down_time` (serviceIsUp), so
 * a sighting that old can still keep a host up: 60 + 60 s + the margin, 5 min, with Nova's defaults.
 */
export function sightingLookbackMs(window: LivenessWindow = {}): number {
  const downTime = window.serviceDownTimeSeconds ?? OPTIONS.DEFAULT.service_down_time.default;
  const interval = window.reportIntervalSeconds ?? REPORT_INTERVAL_SECONDS;
  for (const [field, value] of [
    ['serviceDownTimeSeconds', downTime],
    ['reportIntervalSeconds', interval],
  ] as const) {
    if (!(Number.isFinite(value) && value > 0))
      throw new ConfigError(`${field} must be a finite number of seconds > 0, got ${value}`);
  }
  return (downTime + interval) * 1000 + SIGHTING_MARGIN_MS;
}
