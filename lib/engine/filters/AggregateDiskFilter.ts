import type { AggregateMemo } from '../aggregates.js';
import { defineFilter, PASS, reject } from '../filter.js';
import { aggregateRatio, aggregateRatioOrigin } from '../ratios.js';
import { diskFits, diskShortfall } from './DiskFilter.js';

const TOO_LITTLE_DISK = reject<AggregateMemo<number>>((host, spec, memo, ctx) =>
  diskShortfall(
    host,
    spec.flavor,
    aggregateRatio(host, memo, 'disk', ctx.config),
    aggregateRatioOrigin(host, 'disk', ctx.config),
  ),
);

/**
 * DiskFilter (removed from Nova in Victoria) with the ratio taken from the host's aggregates: the
 * smallest `disk_allocation_ratio` in their metadata, else the host's own ratio, which also applies
 * when one aggregate value is not a number. Like DiskFilter, it does not record `limits['disk_gb']`.
 */
export const AggregateDiskFilter = defineFilter<AggregateMemo<number>>({
  name: 'AggregateDiskFilter',
  prepare: () => new Map(),
  check: (host, spec, memo, ctx) =>
    diskFits(host, spec.flavor, aggregateRatio(host, memo, 'disk', ctx.config)) ? PASS : TOO_LITTLE_DISK,
});
