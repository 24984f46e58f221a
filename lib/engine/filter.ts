import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';

/** Returned by `prepare` when, for this request, the filter would pass every host. */
export const PASS_ALL: unique symbol = Symbol.for('placid.PASS_ALL');
export type PassAll = typeof PASS_ALL;

/** A filter's answer for a host that can take the request (Kubernetes' nil Status). */
export type Pass = true;
// Annotated, so `() => PASS` keeps the type `true` instead of widening to boolean.
export const PASS: Pass = true;

/** Renders a rejection's words from what the filter saw: the host, the request, its state. */
export type RejectionWords<S> = (host: HostState, spec: RequestSpec, state: S, ctx: EngineContext) => string;

/**
 * Why a filter removed a host. A filter builds each of its rejections once (a module constant) and
 * returns one from `check`, so a removal allocates nothing; the words are rendered from the host
 * only when someone reads them (an explained decision shows the host).
 */
export interface Rejection<S = unknown> {
  /** The operator-facing reason for `host`, given the same arguments `check` got. */
  message(host: HostState, spec: RequestSpec, state: S, ctx: EngineContext): string;
}

/** One rejection of a filter, built once; its words are rendered only when read. */
export function reject<S = undefined>(words: RejectionWords<S>): Rejection<S> {
  return { message: words };
}

/** What `check` answers for one host: PASS, or the rejection that says why not. */
export type Verdict<S = unknown> = Pass | Rejection<S>;

/**
 * A host filter: Nova's `host_passes(host_state, spec_obj)` answering once, pass or a reason (the
 * Kubernetes scheduler framework's Filter returning a Status), with an optional per-request
 * `prepare` that does the work shared by every host once (parse a hint, fetch instance metadata,
 * build a lookup).
 *
 * @example
 * const TOO_BUSY = reject((host) => `host has ${host.num_instances} instances (limit 10)`);
 * export const myFilter = defineFilter({
 *   name: 'MyFilter',
 *   check: (host) => (host.num_instances < 10 ? PASS : TOO_BUSY),
 * });
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
  /**
   * PASS when the host can take the request, else the rejection saying why (its words are rendered
   * later, for the hosts an explanation shows). Must be pure: no I/O, no shared mutation.
   */
  check(host: HostState, spec: RequestSpec, state: S, ctx: EngineContext): Verdict<S>;
  /**
   * Ignored: accepted from plug-ins written for earlier releases, which ran a filter once per
   * group of hosts sharing the values it named. Every filter now runs on every candidate.
   * @deprecated
   */
  groupedBy?(state: S): unknown;
}

/**
 * What `groupedBy` used to return; kept so plug-ins that import it still load.
 * @deprecated `groupedBy` is ignored.
 */
export interface HostGrouping {
  readonly id: string;
  readonly keys: readonly ((host: HostState) => unknown)[];
}

/** @deprecated `groupedBy` is ignored. */
export const BY_AGGREGATES: HostGrouping = { id: 'aggregates', keys: [(h) => h.aggregates] };

/** Identity helper that keeps a filter's state type checked across prepare/check/rejections. */
export function defineFilter<S = undefined>(filter: HostFilter<S>): HostFilter<S> {
  return filter;
}

/**
 * Why `filter` removes `host`, in words, or null when it passes: `check`, then the rejection's
 * words. For tests and callers that ask one filter about one host.
 */
export function rejectionMessage<S>(
  filter: HostFilter<S>,
  host: HostState,
  spec: RequestSpec,
  state: S,
  ctx: EngineContext,
): string | null {
  const verdict = filter.check(host, spec, state, ctx);
  if (verdict === PASS) return null;
  // A plug-in in plain JavaScript may answer false or anything else that is not a rejection.
  if (typeof (verdict as Partial<Rejection<S>> | null)?.message !== 'function')
    return `rejected by ${filter.name}`;
  return verdict.message(host, spec, state, ctx);
}
