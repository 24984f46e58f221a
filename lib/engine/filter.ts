import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';
import type { HostGrouping } from './hostGroups.js';

/** Returned by `prepare` when, for this request, the filter would pass every host. */
export const PASS_ALL: unique symbol = Symbol.for('placid.PASS_ALL');
export type PassAll = typeof PASS_ALL;

/**
 * A host filter: Nova's `host_passes(host_state, spec_obj)`, with an optional per-request `prepare`
 * that does the work shared by every host once (parse a hint, fetch instance metadata, build a
 * lookup), and an `explain` that tells an operator why a host failed.
 *
 * @example
 * export const myFilter: HostFilter = {
 *   name: 'MyFilter',
 *   hostPasses: (host) => host.num_instances < 10,
 *   explain: (host) => `host has ${host.num_instances} instances (limit 10)`,
 * };
 */
export interface HostFilter<S = unknown> {
  /** The name used in `enabled_filters`: Nova's class name for Nova's filters. */
  readonly name: string;
  /** Nova's `run_filter_once_per_request`: skipped for the 2nd and later instance of a multi-create. */
  readonly runFilterOncePerRequest?: boolean;
  /** Nova's `RUN_ON_REBUILD`: when false, every host passes on a rebuild. */
  readonly runOnRebuild?: boolean;
  /** Once per request (per instance); PASS_ALL skips the per-host loop. May be async (I/O). */
  prepare?(spec: RequestSpec, ctx: EngineContext): S | PassAll | Promise<S | PassAll>;
  /** True when the host can take the request. Must be pure: no I/O, no shared mutation. */
  hostPasses(host: HostState, spec: RequestSpec, state: S, ctx: EngineContext): boolean;
  /**
   * Optional, for speed: the host values this request's verdict depends on (see hostGroups.ts), or
   * null when it depends on more. The engine then calls `hostPasses` once per distinct value among a
   * fleet's hosts instead of once per host, possibly on a host of the group that is not a candidate.
   * Every host field `hostPasses` reads must be covered.
   */
  groupedBy?(state: S): HostGrouping | null;
  /** Why the host failed, in words an operator can act on. Called only for eliminated hosts. */
  explain?(host: HostState, spec: RequestSpec, state: S, ctx: EngineContext): string;
}

/** Identity helper that keeps a filter's state type checked across prepare/hostPasses/explain. */
export function defineFilter<S = undefined>(filter: HostFilter<S>): HostFilter<S> {
  return filter;
}
