import { ComputeVariantFilter } from '../../plugins/computeVariant/index.js';
import type { HostFilter } from '../filter.js';

/**
 * Placid's own filters. Like Nova's filters under `all_filters`, they may be named in
 * `enabled_filters` without being listed in `available_filters`; a plugin module exporting a
 * filter of the same name replaces the built-in one.
 */
export const PLACID_FILTERS: Readonly<Record<string, HostFilter<unknown>>> = {
  ComputeVariantFilter: ComputeVariantFilter as HostFilter<unknown>,
};
