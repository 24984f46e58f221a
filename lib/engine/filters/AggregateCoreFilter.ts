import type { AggregateMemo } from '../aggregates.js';
import { defineFilter } from '../filter.js';
import { aggregateRatios } from '../ratios.js';
import { coreRule } from './CoreFilter.js';

/**
 * CoreFilter (removed from Nova in Victoria) with the ratio taken from the host's aggregates: the
 * smallest `cpu_allocation_ratio` in their metadata, else the host's own ratio, which also applies
 * when one aggregate value is not a number. Like CoreFilter, it does not record `limits['vcpu']`.
 */
export const AggregateCoreFilter = defineFilter<AggregateMemo<number>>({
  name: 'AggregateCoreFilter',
  prepare: () => new Map(),
  check: coreRule(aggregateRatios('cpu')),
});
