import { defaultConfig, type SchedulerConfig } from '../config/options.js';

/**
 * The scheduler config of the simulated deployment. Its agents report every
 * `report_interval_minutes`, and a host's report is its heartbeat, so Nova's 60 s
 * `service_down_time` would read every host as down between reports; like an operator whose
 * collector runs every few minutes, the simulation allows two missed reports.
 */
export function simSchedulerConfig(reportIntervalMinutes: number): SchedulerConfig {
  const config = defaultConfig();
  config.DEFAULT.service_down_time = Math.max(
    config.DEFAULT.service_down_time,
    2 * reportIntervalMinutes * 60,
  );
  return config;
}
