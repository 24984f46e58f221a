/**
 * The placement engine as the planner runs it. The operator's scheduler config is kept (filters,
 * allocation ratios, reserved amounts, RAM multiplier), with what a rebalancing move needs:
 * - Placid's move filters around the operator's: SameAvailabilityZoneFilter first (it removes the
 *   most hosts for the least work), then the operator's filters, the server-group filters (always:
 *   a move must not break (anti-)affinity), HostStealFilter and RoleSpreadFilter;
 * - the Placement pre-filter always on: capacity under allocation ratios is a hard constraint;
 * - weighers PredictedStealWeigher (custom, registered as a plugin) and RAMWeigher: low predicted
 *   steal and free CPU first, then free RAM. The operator's other weighers (build failures,
 *   cross-cell, ...) are about new builds, not about where a running VM should go;
 * - deterministic choice (host_subset_size 1, no shuffle, a fixed seed) and enough alternates to
 *   try when the best host has no room in any wave before the plan expires.
 */
import type { SchedulerConfig } from '../config/options.js';
import { ALL_FILTERS, createScheduler, type Plugins } from '../engine/registry.js';
import type { Scheduler } from '../engine/scheduler.js';
import { withPlacidFilters } from './filters/index.js';
import { PredictedStealWeigher } from './PredictedStealWeigher.js';

export const MOVE_FILTERS_FIRST = ['SameAvailabilityZoneFilter'];
const SERVER_GROUP_FILTERS = ['ServerGroupAntiAffinityFilter', 'ServerGroupAffinityFilter'];
export const MOVE_FILTERS_LAST = [...SERVER_GROUP_FILTERS, 'HostStealFilter', 'RoleSpreadFilter'];
export const MOVE_WEIGHERS = ['PredictedStealWeigher', 'RAMWeigher'];
/** Alternates asked for: the chosen host plus four more. */
const MOVE_ATTEMPTS = 5;

/** The operator's config adjusted for planning moves (a copy; the input is not changed). */
export function plannerConfig(config: SchedulerConfig): SchedulerConfig {
  const fs = config.filter_scheduler;
  const filters = [...new Set([...MOVE_FILTERS_FIRST, ...fs.enabled_filters, ...MOVE_FILTERS_LAST])];
  // Nova's server-group filters must be available even when the operator lists filters one by one.
  const available = fs.available_filters.includes(ALL_FILTERS)
    ? fs.available_filters
    : [...new Set([...fs.available_filters, ...SERVER_GROUP_FILTERS])];
  return {
    ...config,
    filter_scheduler: {
      ...fs,
      available_filters: available,
      enabled_filters: filters,
      weight_classes: [...MOVE_WEIGHERS],
      host_subset_size: 1,
      shuffle_best_same_weighed_hosts: false,
    },
    scheduler: { ...config.scheduler, max_attempts: Math.max(config.scheduler.max_attempts, MOVE_ATTEMPTS) },
    placid: { ...config.placid, placement_prefilter: true, seed: 0 },
  };
}

/**
 * A scheduler for planning moves, with the operator's plugins (custom filters named in its
 * config), Placid's own filters (the move filters beside this file among them) and Placid's
 * PredictedStealWeigher.
 * @example const scheduler = createPlannerScheduler(config, await loadPluginModules(config, baseDir));
 */
export function createPlannerScheduler(config: SchedulerConfig, plugins: Plugins = {}): Scheduler {
  return createScheduler(plannerConfig(config), {
    ...withPlacidFilters(plugins),
    weighers: [...(plugins.weighers ?? []), PredictedStealWeigher],
  });
}
