import type { HostFilter } from '../../engine/filter.js';
import type { Plugins } from '../../engine/registry.js';
import { ComputeVariantFilter } from '../../plugins/computeVariant/index.js';
import { HostStealFilter } from './HostStealFilter.js';
import { RoleSpreadFilter } from './RoleSpreadFilter.js';
import { SameAvailabilityZoneFilter } from './SameAvailabilityZoneFilter.js';

export { HostStealFilter, RoleSpreadFilter, SameAvailabilityZoneFilter };

/**
 * Placid's own filters, which live above the engine: the compute-variant plug-in and the planner's
 * move filters (each passes every host of a request that is not a planned move). Like Nova's
 * filters under `all_filters`, they may be named in `enabled_filters` without being listed in
 * `available_filters`.
 */
export const PLACID_FILTERS: readonly HostFilter<unknown>[] = [
  ComputeVariantFilter as HostFilter<unknown>,
  SameAvailabilityZoneFilter as HostFilter<unknown>,
  HostStealFilter as HostFilter<unknown>,
  RoleSpreadFilter as HostFilter<unknown>,
];

/**
 * `plugins` with Placid's own filters registered as built-ins (a custom plug-in of the same name
 * still replaces one), for every scheduler Placid builds, so a config naming them resolves the
 * same in the CLI, the schedule stage, the workflow and the planner.
 * @example const scheduler = createScheduler(config, withPlacidFilters(await loadPluginModules(config, dir)));
 */
export function withPlacidFilters(plugins: Plugins = {}): Plugins {
  return { ...plugins, builtins: [...PLACID_FILTERS, ...(plugins.builtins ?? [])] };
}
