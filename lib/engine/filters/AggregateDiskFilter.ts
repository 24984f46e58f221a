import type { AggregateMemo } from '../aggregates.js';
import { defineFilter } from '../filter.js';
import { aggregateRatios } from '../ratios.js';
import { diskRule } from './DiskFilter.js';

/**
 * DiskFilter (removed from Nova in Victoria) with the ratio taken from the host's aggregates: the
 * smallest `disk_allocation_ratio` in their metadata, else the host's own ratio, which also applies
 * when one aggregate value is not a number. Like DiskFilter, it does not record `limits['disk_gb']`.
 */
export const AggregateDiskFilter = defineFilter<AggregateMemo<number>>({
  name: 'AggregateDiskFilter',
  prepare: () => new Map(),
  check: diskRule(aggregateRatios('disk')),
});
