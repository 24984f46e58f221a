import type { AggregateMemo } from '../aggregates.js';
import { defineFilter } from '../filter.js';
import { aggregateRatios } from '../ratios.js';
import { ramRule } from './RamFilter.js';

/**
 * RamFilter (removed from Nova in Victoria) with the ratio taken from the host's aggregates: the
 * smallest `ram_allocation_ratio` in their metadata, else the host's own ratio, which also applies
 * when one aggregate value is not a number. Like RamFilter, it does not record `limits['memory_mb']`.
 */
export const AggregateRamFilter = defineFilter<AggregateMemo<number>>({
  name: 'AggregateRamFilter',
  prepare: () => new Map(),
  check: ramRule(aggregateRatios('ram')),
});
