import type { AggregateMemo } from '../aggregates.js';
import { defineFilter, PASS, reject } from '../filter.js';
import { aggregateRatio, aggregateRatioOrigin } from '../ratios.js';
import { ramFits, ramShortfall } from './RamFilter.js';

const TOO_LITTLE_RAM = reject<AggregateMemo<number>>((host, spec, memo, ctx) =>
  ramShortfall(
    host,
    spec.flavor.memory_mb,
    aggregateRatio(host, memo, 'ram', ctx.config),
    aggregateRatioOrigin(host, 'ram', ctx.config),
  ),
);

/**
 * RamFilter (removed from Nova in Victoria) with the ratio taken from the host's aggregates: the
 * smallest `ram_allocation_ratio` in their metadata, else the host's own ratio, which also applies
 * when one aggregate value is not a number. Like RamFilter, it does not record `limits['memory_mb']`.
 */
export const AggregateRamFilter = defineFilter<AggregateMemo<number>>({
  name: 'AggregateRamFilter',
  prepare: () => new Map(),
  check: (host, spec, memo, ctx) =>
    ramFits(host, spec.flavor.memory_mb, aggregateRatio(host, memo, 'ram', ctx.config))
      ? PASS
      : TOO_LITTLE_RAM,
});
