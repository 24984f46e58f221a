import { PlacidError } from '../model/errors.js';
import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';
import { PluginError } from './errors.js';
import { ALL_ZERO, type HostWeigher } from './weigher.js';

/**
 * One weigher's part in a recorded weighing (see weighCandidates): enough to give any survivor's
 * raw weight, normalised weight and multiplier later, for the hosts an explanation shows.
 */
export interface WeigherRecord {
  weigher: HostWeigher<unknown>;
  span: Span;
  /** The multiplier of every host, or null when it is per host (asked again when shown). */
  multiplier: number | null;
  /** The survivors' clamped raw weights, when they are not read from fact rows. */
  raw: Float64Array | null;
  /** The fleet's fact rows and this weigher's slot in them, when its raw weight is a host fact. */
  rows: Float64Array | null;
  slot: number;
}

let buffer = new Float64Array(1024);
export function scratch(n: number): Float64Array {
  if (buffer.length < n) buffer = new Float64Array(Math.max(n, buffer.length * 2));
  return buffer;
}

export interface ActiveWeigher {
  weigher: HostWeigher<unknown>;
  state: unknown;
}

export function prepareWeighers(
  weighers: readonly HostWeigher<unknown>[],
  spec: RequestSpec,
  ctx: EngineContext,
  anyHost: HostState,
) {
  const active: ActiveWeigher[] = [];
  for (const weigher of weighers) {
    let state: unknown;
    try {
      state = weigher.prepare ? weigher.prepare(spec, ctx) : undefined;
    } catch (err) {
      throw asPluginError(weigher.name, 'could not prepare the request', err);
    }
    if (state === ALL_ZERO) continue;
    // A multiplier of 0 on every host adds nothing; only a weigher that can raise (MetricsWeigher
    // with required=true) must still look at every host, as Nova's does.
    if (!weigher.mayRaise && weigher.uniformMultiplier?.(ctx) && weigher.multiplier(anyHost, ctx) === 0)
      continue;
    active.push({ weigher, state });
  }
  return active;
}

/** The span raw weights are normalised over: `x` becomes (x - lo) / span, or 0 when collapsed. */
export interface Span {
  lo: number;
  span: number;
  collapsed: boolean;
}

/** Clamps raw[0..n) to the weigher's [minval, maxval] in place and returns the span to normalise over. */
export function clampedRange(w: HostWeigher<unknown>, raw: Float64Array, n: number): Span {
  const { minval, maxval } = w;
  let lo = Infinity;
  let hi = -Infinity;
  // A NaN compares false, so it is neither clamped nor taken as lo or hi.
  for (let i = 0; i < n; i++) {
    let x = raw[i];
    if (minval !== undefined && x < minval) x = minval;
    if (maxval !== undefined && x > maxval) x = maxval;
    raw[i] = x;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  // A weigher's declared minval/maxval fixes that end of the range (minval = 0: x / max).
  if (minval !== undefined) lo = minval;
  if (maxval !== undefined) hi = maxval;
  const span = hi - lo;
  return { lo, span, collapsed: span === 0 || Number.isNaN(span) };
}

export function normalized(x: number, s: Span): number {
  return s.collapsed ? 0 : (x - s.lo) / s.span;
}

export function asPluginError(plugin: string, what: string, err: unknown): Error {
  if (err instanceof PlacidError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PluginError(plugin, `${what}: ${message}`, { cause: err });
}

/**
 * Host positions ordered best first: weight descending, ties in input order (Nova's stable sort).
 * With `limit`, only the best `limit` are found, in O(n·limit) rather than a full sort.
 */
export function rankHosts(weights: Float64Array, limit?: number): number[] {
  const n = weights.length;
  if (limit !== undefined && limit <= 0) return [];
  if (limit === undefined || limit >= n) {
    const order = Array.from({ length: n }, (_, i) => i);
    return order.sort((a, b) => weights[b] - weights[a] || a - b);
  }
  const top: number[] = [];
  for (let i = 0; i < n; i++) {
    const w = weights[i];
    if (top.length === limit && w <= weights[top[limit - 1]]) continue;
    let j = top.length < limit ? top.length : limit - 1;
    while (j > 0 && weights[top[j - 1]] < w) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = i;
  }
  return top;
}
