import type { RequestSpec } from '../model/requestSpec.js';
import type { Candidates } from './candidates.js';
import type { EngineContext } from './context.js';
import { addFactTerms, clampedSpan, FactTerms, factColumn, factRanges } from './factGather.js';
import type { DecisionRecord } from './recording.js';
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

/** Where an explained weighing goes: each weigher's part, its raw weights kept by the decision's record. */
export interface WeighingRecord {
  weighers: WeigherRecord[];
  record: Pick<DecisionRecord, 'keptRaw'>;
}

/**
 * Nova's `get_weighed_objects` over candidate positions, writing the final weights of the
 * survivors to weights[0..count) (a buffer the caller reuses): for each weigher, raw weights
 * clamped to [minval, maxval], normalised over all survivors (a collapsed range gives 0), multiplied
 * by the per-host multiplier, and summed. With one host (or none) nothing is weighed and every
 * weight is 0. Fact weighers take their raw weights from the fleet's fact rows (see
 * FleetIndex.factRows), so no host object is read for them: one pass finds every fact's extremes
 * over the survivors, and consecutive fact weighers with one multiplier each are then added in a
 * second pass together (each survivor's row read once for all of them, the sums in weigher order).
 *
 * `recording`, when given, gets what an explanation needs to show each weigher's part for any
 * survivor (its span and multiplier, and the raw weights a fact row does not hold).
 */
export function weighCandidates(
  weighers: readonly HostWeigher<unknown>[],
  c: Candidates,
  spec: RequestSpec,
  ctx: EngineContext,
  weights: Float64Array,
  recording: WeighingRecord | null = null,
): void {
  const n = c.count;
  weights.fill(0, 0, n);
  terms.count = 0; // whatever a weigher that threw left queued
  if (n <= 1) return;
  const anyHost = c.hosts[c.positions[0]];
  const active = prepareWeighers(weighers, spec, ctx, anyHost);
  const rows = active.some((a) => isFactWeigher(a.weigher)) ? c.index.factRows(ctx.config, c) : null;
  const range = rows ? factRanges(rows, c) : null;
  for (const { weigher, state } of active) {
    if (rows !== null && range !== null && isFactWeigher(weigher) && weigher.uniformMultiplier?.(ctx)) {
      const slot = FACT_SLOT[weigher.fact];
      const span = clampedSpan(weigher, range.low[slot], range.high[slot]);
      const m = weigher.multiplier(anyHost, ctx);
      recording?.weighers.push({ weigher, span, multiplier: m, raw: null, rows, slot });
      // A collapsed range adds m × 0 = 0 to every weight: nothing, unless m is infinite (NaN).
      // (Weights start at +0 and never become -0, so adding a zero of either sign changes nothing.)
      if (!span.collapsed) terms.add(weigher, slot, span, m);
      else if (!Number.isFinite(m)) {
        addFactTerms(rows, c, terms, weights);
        for (let j = 0; j < n; j++) weights[j] += m * 0;
      }
      continue;
    }
    // Queued terms first: the weights must sum in weigher order.
    if (rows !== null) addFactTerms(rows, c, terms, weights);
    const raw = scratch(n);
    const slot = rows !== null && isFactWeigher(weigher) ? FACT_SLOT[weigher.fact] : -1;
    if (slot >= 0) factColumn(rows!, c, slot, raw);
    else rawWeights(weigher, state, c, raw, spec, ctx);
    const span = clampedRange(weigher, raw, n);
    addNormalized(weigher, raw, span, c, ctx, weights);
    if (recording) {
      const uniform = weigher.uniformMultiplier?.(ctx) ? weigher.multiplier(anyHost, ctx) : null;
      const kept = recording.record.keptRaw(raw, n);
      recording.weighers.push({ weigher, span, multiplier: uniform, raw: kept, rows: null, slot: -1 });
    }
  }
  if (rows !== null) addFactTerms(rows, c, terms, weights);
}

/** The fact weighers queued to be added in one pass (weighing is synchronous, so one serves every call). */
const terms = new FactTerms();

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
