import type { AggregateMemo } from '../aggregates.js';
import { defineFilter, PASS, reject } from '../filter.js';
import { aggregateRatio, aggregateRatioOrigin } from '../ratios.js';
import { coreShortfall, coresFit } from './CoreFilter.js';

const TOO_FEW_CPUS = reject<AggregateMemo<number>>((host, spec, memo, ctx) =>
  coreShortfall(
    host,
    spec.flavor.vcpus,
    aggregateRatio(host, memo, 'cpu', ctx.config),
    aggregateRatioOrigin(host, 'cpu', ctx.config),
  ),
);

/**
 * CoreFilter (removed from Nova in Victoria) with the ratio taken from the host's aggregates: the
 * smallest `cpu_allocation_ratio` in their metadata, else the host's own ratio, which also applies
 * when one aggregate value is not a number. Like CoreFilter, it does not record `limits['vcpu']`.
 */
export const AggregateCoreFilter = defineFilter<AggregateMemo<number>>({
  name: 'AggregateCoreFilter',
  prepare: () => new Map(),
  check: (host, spec, memo, ctx) =>
    coresFit(host, spec.flavor.vcpus, aggregateRatio(host, memo, 'cpu', ctx.config)) ? PASS : TOO_FEW_CPUS,
});
