import type { RequestSpec } from '../model/requestSpec.js';
import type { Candidates } from './candidates.js';
import type { EngineContext } from './context.js';
import { addClampedNormalized, clampedSpan, gatherFacts } from './factGather.js';
import type { HostWeigher } from './weigher.js';
import { FACT_SLOT } from './weighers/factRows.js';
import { isFactWeigher } from './weighers/hostFacts.js';
import {
  asPluginError,
  clampedRange,
  normalized,
  prepareWeighers,
  type Span,
  scratch,
  type WeigherRecord,
} from './weighing.js';

/**
 * Nova's `get_weighed_objects` over candidate positions, writing the final weights of the
 * survivors to weights[0..count) (a buffer the caller reuses): for each weigher, raw weights
 * clamped to [minval, maxval], normalised over all survivors (a collapsed range gives 0), multiplied
 * by the per-host multiplier, and summed. With one host (or none) nothing is weighed and every
 * weight is 0. Fact weighers take their raw weights from the fleet's fact rows (see
 * FleetIndex.factRows), gathered for all of them in one pass, so no host object is read for them.
 *
 * `record`, when given, gets what an explanation needs to show each weigher's part for any survivor
 * (its span and multiplier, and the raw weights a fact row does not hold).
 */
export function weighCandidates(
  weighers: readonly HostWeigher<unknown>[],
  c: Candidates,
  spec: RequestSpec,
  ctx: EngineContext,
  weights: Float64Array,
  record: WeigherRecord[] | null = null,
): void {
  const n = c.count;
  weights.fill(0, 0, n);
  if (n <= 1) return;
  const active = prepareWeighers(weighers, spec, ctx, c.hosts[c.positions[0]]);
  const rows = active.some((a) => isFactWeigher(a.weigher)) ? c.index.factRows(ctx.config) : null;
  const facts = rows ? gatherFacts(rows, c) : null;
  for (const { weigher, state } of active) {
    if (facts !== null && isFactWeigher(weigher) && weigher.uniformMultiplier?.(ctx)) {
      const slot = FACT_SLOT[weigher.fact];
      const raw = facts.columns.subarray(slot * n, (slot + 1) * n);
      const span = clampedSpan(weigher, facts.low[slot], facts.high[slot]);
      const m = weigher.multiplier(c.hosts[c.positions[0]], ctx);
      // A collapsed range adds m × 0 = 0 to every weight: nothing, unless m is infinite (NaN).
      // (Weights start at +0 and never become -0, so adding a zero of either sign changes nothing.)
      if (!(span.collapsed && Number.isFinite(m))) addClampedNormalized(weigher, raw, span, m, n, weights);
      record?.push({ weigher, span, multiplier: m, raw: null, rows, slot });
      continue;
    }
    const raw = scratch(n);
    const slot = facts !== null && isFactWeigher(weigher) ? FACT_SLOT[weigher.fact] : -1;
    if (slot >= 0) raw.set(facts!.columns.subarray(slot * n, (slot + 1) * n));
    else rawWeights(weigher, state, c, raw, spec, ctx);
    const span = clampedRange(weigher, raw, n);
    addNormalized(weigher, raw, span, c, ctx, weights);
    if (record) {
      const uniform = weigher.uniformMultiplier?.(ctx)
        ? weigher.multiplier(c.hosts[c.positions[0]], ctx)
        : null;
      record.push({ weigher, span, multiplier: uniform, raw: raw.slice(0, n), rows: null, slot: -1 });
    }
  }
}

function rawWeights(
  weigher: HostWeigher<unknown>,
  state: unknown,
  c: Candidates,
  raw: Float64Array,
  spec: RequestSpec,
  ctx: EngineContext,
): void {
  const { hosts, positions } = c;
  let j = 0;
  try {
    for (; j < c.count; j++) raw[j] = weigher.weigh(hosts[positions[j]], spec, state, ctx);
  } catch (err) {
    throw asPluginError(weigher.name, `failed on host ${hosts[positions[j]].host}`, err);
  }
}

function addNormalized(
  w: HostWeigher<unknown>,
  raw: Float64Array,
  s: Span,
  c: Candidates,
  ctx: EngineContext,
  weights: Float64Array,
): void {
  const { hosts, positions } = c;
  const n = c.count;
  if (w.uniformMultiplier?.(ctx)) {
    const m = w.multiplier(hosts[positions[0]], ctx);
    for (let j = 0; j < n; j++) weights[j] += m * normalized(raw[j], s);
  } else {
    for (let j = 0; j < n; j++) weights[j] += w.multiplier(hosts[positions[j]], ctx) * normalized(raw[j], s);
  }
}
