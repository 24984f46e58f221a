import type { HostState } from '../../model/hostState.js';
import { type AggregateMemo, aggregateValues, memoizedByAggregates } from '../aggregates.js';
import { defineFilter, PASS, reject } from '../filter.js';

const KEY = 'instance_type';

const FLAVOR_NOT_NAMED = reject<AggregateMemo<boolean>>((host, spec) => {
  const values = aggregateValues(host, KEY).map((v) => `'${v}'`);
  return `flavor ${spec.flavor.name} is not named in the host's aggregate metadata ${KEY} (${values.join(', ')})`;
});

/**
 * Passes hosts whose aggregates' `instance_type` metadata names the flavor; each aggregate's value
 * is a comma-separated list of flavor names. Hosts whose aggregates do not set the key pass.
 */
export const AggregateTypeAffinityFilter = defineFilter<AggregateMemo<boolean>>({
  name: 'AggregateTypeAffinityFilter',
  runFilterOncePerRequest: true,
  prepare: () => new Map(),
  check: (host, spec, memo) =>
    host.aggregates.length === 0 || memoizedByAggregates(memo, host, allowsFlavor, spec.flavor.name)
      ? PASS
      : FLAVOR_NOT_NAMED,
});

function allowsFlavor(host: HostState, flavorName: string): boolean {
  // Nova reads the raw value of each aggregate and splits it itself.
  const values = aggregateValues(host, KEY);
  if (values.length === 0) return true;
  return values.some((value) => value.split(',').some((name) => name.trim() === flavorName));
}
