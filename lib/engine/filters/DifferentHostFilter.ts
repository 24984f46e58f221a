import type { HostState } from '../../model/hostState.js';
import { type RequestSpec, schedulerHint } from '../../model/requestSpec.js';
import { defineFilter, PASS, PASS_ALL, type PassAll, reject } from '../filter.js';

const RUNS_A_NAMED_INSTANCE = reject<readonly string[]>(
  (host, _spec, uuids) =>
    `host already runs ${uuids.filter((u) => Object.hasOwn(host.instances, u)).join(', ')}, ` +
    'named in the different_host hint',
);

/**
 * Passes hosts running none of the instances named by the `different_host` scheduler hint (one
 * uuid or a list). Without the hint, or with an empty one, every host passes.
 */
export const DifferentHostFilter = defineFilter<readonly string[]>({
  name: 'DifferentHostFilter',
  runFilterOncePerRequest: true,
  prepare: (spec) => hintedUuids(spec, 'different_host'),
  check: (host, _spec, uuids) => (runsAny(host, uuids) ? RUNS_A_NAMED_INSTANCE : PASS),
});

/**
 * The uuids of an affinity hint as a list (Nova's get_scheduler_hint unwraps a one-element list;
 * instance_uuids_overlap wraps a bare string again), or PASS_ALL when the hint is absent or empty.
 */
export function hintedUuids(spec: RequestSpec, hint: string): readonly string[] | PassAll {
  const value = schedulerHint(spec, hint);
  if (!value || value.length === 0) return PASS_ALL;
  return typeof value === 'string' ? [value] : value;
}

/** Nova's instance_uuids_overlap, allocation-free; own keys only, so 'constructor' is no uuid. */
export function runsAny(host: HostState, uuids: readonly string[]): boolean {
  for (let i = 0; i < uuids.length; i++) if (Object.hasOwn(host.instances, uuids[i])) return true;
  return false;
}
