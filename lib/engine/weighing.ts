import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';
import { wrap } from './filterHandler.js';
import { ALL_ZERO, type HostWeigher } from './weigher.js';

/**
 * One weigher's part in an explained weighing: enough to give any weighed host's raw weight,
 * normalised weight and multiplier when the explanation is read.
 */
export interface WeigherPart {
  weigher: HostWeigher<unknown>;
  span: Span;
  /** The multiplier of every host, or null when it is per host (asked again when shown). */
  multiplier: number | null;
  /** The hosts' clamped raw weights, in the weighed list's order. */
  raw: Float64Array;
}

/**
 * Nova's `get_weighed_objects`: the final weight of each host, in list order. For each weigher, raw
 * weights clamped to [minval, maxval], normalised over all hosts (a collapsed range gives 0),
 * multiplied by the per-host multiplier, and summed. With one host (or none) nothing is weighed and
 * every weight is 0. `parts`, when given, gets each weigher's part (for an explanation).
 */
export function weighHosts(
  weighers: readonly HostWeigher<unknown>[],
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  parts: WeigherPart[] | null = null,
): Float64Array {
  const n = hosts.length;
  const weights = new Float64Array(n);
  if (n <= 1) return weights;
  let raw = new Float64Array(n);
  for (const { weigher, state } of prepareWeighers(weighers, spec, ctx, hosts[0])) {
    let j = 0;
    try {
      for (; j < n; j++) raw[j] = weigher.weigh(hosts[j], spec, state, ctx);
    } catch (err) {
      throw wrap(weigher.name, `failed on host ${hosts[j].host}`, err);
    }
    const span = clampedRange(weigher, raw, n);
    const uniform = weigher.uniformMultiplier?.(ctx) ? weigher.multiplier(hosts[0], ctx) : null;
    for (j = 0; j < n; j++)
      weights[j] += (uniform ?? weigher.multiplier(hosts[j], ctx)) * normalized(raw[j], span);
    if (parts) {
      parts.push({ weigher, span, multiplier: uniform, raw });
      raw = new Float64Array(n);
    }
  }
  return weights;
}

interface ActiveWeigher {
  weigher: HostWeigher<unknown>;
  state: unknown;
}

function prepareWeighers(
  weighers: readonly HostWeigher<unknown>[],
  spec: RequestSpec,
  ctx: EngineContext,
  anyHost: HostState,
): ActiveWeigher[] {
  const active: ActiveWeigher[] = [];
  for (const weigher of weighers) {
    let state: unknown;
    try {
      state = weigher.prepare ? weigher.prepare(spec, ctx) : undefined;
    } catch (err) {
      throw wrap(weigher.name, 'could not prepare the request', err);
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
