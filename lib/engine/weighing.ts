import { PlacidError } from '../model/errors.js';
import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';
import { PluginError } from './errors.js';
import { ALL_ZERO, type HostWeigher } from './weigher.js';
import { factColumns, gatherFacts, type HostFacts, isFactWeigher } from './weighers/hostFacts.js';

/** One weigher's contribution to every host, kept when a decision is explained. */
export interface WeigherTrace {
  weigher: string;
  raw: Float64Array;
  normalized: Float64Array;
  multiplier: Float64Array;
}

export interface Weighing {
  /** Final weight per host, aligned with the input order. */
  weights: Float64Array;
  traces: WeigherTrace[];
}

/**
 * Nova's `get_weighed_objects`: for each weigher, raw weights clamped to [minval, maxval], normalised
 * over all hosts (a collapsed range gives 0), multiplied by the per-host multiplier, and summed. With
 * one host (or none) nothing is weighed and the weight is 0.
 */
export function weighHosts(
  weighers: readonly HostWeigher<unknown>[],
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  trace: boolean,
): Weighing {
  const n = hosts.length;
  const weights = new Float64Array(n);
  const traces: WeigherTrace[] = [];
  if (n <= 1) return { weights, traces };
  const active = prepareWeighers(weighers, spec, ctx, hosts[0]);
  // One scratch buffer for raw weights, reused across weighers and decisions (no per-decision garbage).
  const raw = scratch(n);
  const facts = gatheredFacts(active, hosts, ctx);
  for (const { weigher, state } of active) {
    if (facts !== null && isFactWeigher(weigher)) raw.set(facts[weigher.fact].subarray(0, n));
    else rawWeights(weigher, state, hosts, raw, spec, ctx);
    const range = clampedRange(weigher, raw, n);
    if (trace) traces.push(addTraced(weigher, raw, range, hosts, ctx, weights));
    else addNormalized(weigher, raw, range, hosts, ctx, weights);
  }
  return { weights, traces };
}

/**
 * The host facts of every host, read in one pass, when an active weigher takes its raw weight from
 * one (see hostFacts.ts for why); null otherwise, or when a malformed host breaks the pass, in
 * which case the host-by-host path reports which weigher fails on which host.
 */
function gatheredFacts(active: readonly ActiveWeigher[], hosts: readonly HostState[], ctx: EngineContext) {
  if (!active.some((a) => isFactWeigher(a.weigher))) return null;
  const facts: HostFacts = factColumns(hosts.length);
  try {
    gatherFacts(hosts, ctx.config, facts);
    return facts;
  } catch {
    return null;
  }
}

/** Fills raw[0..hosts.length) with the weigher's raw weight of each host. */
function rawWeights(
  weigher: HostWeigher<unknown>,
  state: unknown,
  hosts: readonly HostState[],
  raw: Float64Array,
  spec: RequestSpec,
  ctx: EngineContext,
): void {
  let i = 0;
  try {
    for (; i < hosts.length; i++) raw[i] = weigher.weigh(hosts[i], spec, state, ctx);
  } catch (err) {
    throw asPluginError(weigher.name, `failed on host ${hosts[i].host}`, err);
  }
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

/** Adds multiplier × normalised raw weight to each host's weight. */
function addNormalized(
  w: HostWeigher<unknown>,
  raw: Float64Array,
  s: Span,
  hosts: readonly HostState[],
  ctx: EngineContext,
  weights: Float64Array,
): void {
  const n = hosts.length;
  if (w.uniformMultiplier?.(ctx)) {
    // The common case: one multiplier for the whole fleet, so this pass reads no host object.
    const m = w.multiplier(hosts[0], ctx);
    for (let i = 0; i < n; i++) weights[i] += m * normalized(raw[i], s);
  } else {
    for (let i = 0; i < n; i++) weights[i] += w.multiplier(hosts[i], ctx) * normalized(raw[i], s);
  }
}

/** addNormalized, keeping each host's raw and normalised weight and multiplier for the explanation. */
function addTraced(
  w: HostWeigher<unknown>,
  raw: Float64Array,
  s: Span,
  hosts: readonly HostState[],
  ctx: EngineContext,
  weights: Float64Array,
): WeigherTrace {
  const n = hosts.length;
  const t = newTrace(w.name, raw, n);
  const uniform = w.uniformMultiplier?.(ctx) ?? false;
  const fixed = uniform ? w.multiplier(hosts[0], ctx) : 0;
  for (let i = 0; i < n; i++) {
    const norm = normalized(raw[i], s);
    const m = uniform ? fixed : w.multiplier(hosts[i], ctx);
    weights[i] += m * norm;
    t.normalized[i] = norm;
    t.multiplier[i] = m;
  }
  return t;
}

function newTrace(weigher: string, raw: Float64Array, n: number): WeigherTrace {
  return {
    weigher,
    raw: raw.slice(0, n),
    normalized: new Float64Array(n),
    multiplier: new Float64Array(n),
  };
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
