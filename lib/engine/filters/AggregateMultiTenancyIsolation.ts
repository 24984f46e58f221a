import type { HostState } from '../../model/hostState.js';
import { type AggregateMemo, aggregateMetadata, memoizedByAggregates } from '../aggregates.js';
import { defineFilter, PASS, reject } from '../filter.js';

const KEY_PREFIX = 'filter_tenant_id';
const NO_TENANTS: ReadonlySet<string> = new Set();

const RESERVED_FOR_OTHERS = reject<AggregateMemo<ReadonlySet<string>>>(
  (host, spec, memo) =>
    `host's aggregates reserve it for projects ${[...memoizedByAggregates(memo, host, allowedTenants, undefined)].join(', ')} (${KEY_PREFIX}* metadata); ` +
    `project ${spec.project_id ?? '(none)'} is not one of them`,
);

/**
 * Keeps other projects off hosts reserved for some: when the host's aggregates carry metadata keys
 * starting with `filter_tenant_id` (`filter_tenant_id`, `filter_tenant_id_2`, ...), only the projects
 * they list (comma-separated) may land there. It does not keep those projects off other hosts; the
 * `limit_tenants_to_placement_aggregate` pre-filter does that.
 */
export const AggregateMultiTenancyIsolation = defineFilter<AggregateMemo<ReadonlySet<string>>>({
  name: 'AggregateMultiTenancyIsolation',
  runFilterOncePerRequest: true,
  prepare: () => new Map(),
  check: (host, spec, memo) => {
    if (host.aggregates.length === 0) return PASS;
    const tenants = memoizedByAggregates(memo, host, allowedTenants, undefined);
    // A request without a project cannot be one of the allowed tenants, as in Nova.
    return tenants.size === 0 || (spec.project_id !== null && tenants.has(spec.project_id))
      ? PASS
      : RESERVED_FOR_OTHERS;
  },
});

/** The union of every `filter_tenant_id*` metadata value of the host's aggregates. */
function allowedTenants(host: HostState): ReadonlySet<string> {
  let tenants: Set<string> | undefined;
  for (const [key, values] of aggregateMetadata(host)) {
    if (!key.startsWith(KEY_PREFIX)) continue;
    tenants ??= new Set();
    for (const v of values) tenants.add(v);
  }
  return tenants ?? NO_TENANTS;
}
