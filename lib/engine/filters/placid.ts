import { ComputeVariantFilter } from '../../plugins/computeVariant/index.js';
import type { HostFilter } from '../filter.js';
import { HostStealFilter } from './HostStealFilter.js';
import { RoleSpreadFilter } from './RoleSpreadFilter.js';
import { SameAvailabilityZoneFilter } from './SameAvailabilityZoneFilter.js';

/**
 * Placid's own filters. Like Nova's filters under `all_filters`, they may be named in
 * `enabled_filters` without being listed in `available_filters`; a plugin module exporting a
 * filter of the same name replaces the built-in one. The rebalancer's move filters pass every
 * host for requests that are not planned moves.
 */
export const PLACID_FILTERS: Readonly<Record<string, HostFilter<unknown>>> = {
  ComputeVariantFilter: ComputeVariantFilter as HostFilter<unknown>,
  SameAvailabilityZoneFilter: SameAvailabilityZoneFilter as HostFilter<unknown>,
  HostStealFilter: HostStealFilter as HostFilter<unknown>,
  RoleSpreadFilter: RoleSpreadFilter as HostFilter<unknown>,
};
