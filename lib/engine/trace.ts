import type { HostState } from '../model/hostState.js';
import type { EngineContext } from './context.js';
import type { Elimination, ExplainedTop, HostWeight, RankedWeight, WeightPart } from './explain.js';
import type { Rejection } from './filter.js';
import type { FilterRemovals } from './filterHandler.js';
import type { NarrowRemoval } from './narrow.js';
import type { HostCheck } from './prefilter/hostCheck.js';
import { normalized, rankHosts, type WeigherPart } from './weighing.js';

/** The first instance's weighed hosts, their final weights and each weigher's part. */
interface Weighing {
  hosts: readonly HostState[];
  weights: Float64Array;
  parts: readonly WeigherPart[];
  ctx: EngineContext;
}

/**
 * What one decision did, kept by the decision itself: which hosts the pre-filter kept, what the
 * narrowing and each filter removed (with the filter's rejection), and the first instance's
 * weighing. Eliminations and the weighed list, with their reasons and breakdowns, are built from
 * it only when someone reads them. Plain data the decision owns: nothing is lent or given back.
 */
export class DecisionTrace {
  private prefilter: { hosts: readonly HostState[]; kept: Int32Array; check: HostCheck } | null = null;
  private narrowed: readonly NarrowRemoval[] = [];
  /** Every filter's removals, filter by filter and instance by instance (when explained). */
  readonly removals: FilterRemovals[] | null;
  private weighing: Weighing | null = null;
  /** True once the first instance got as far as weighing (an empty weighed list, not none). */
  private weighedReached = false;

  /** `explains` false: only the first instance's weights are kept (no eliminations, no breakdowns). */
  constructor(readonly explains: boolean) {
    this.removals = explains ? [] : null;
  }

  /** The pre-filter kept the fleet's hosts at `kept` (ascending positions); `check` names the rest. */
  prefiltered(hosts: readonly HostState[], kept: Int32Array, check: HostCheck): void {
    if (this.explains) this.prefilter = { hosts, kept, check };
  }

  /** The first instance's narrowing removals (later instances narrow nothing new). */
  narrowedBy(removals: readonly NarrowRemoval[], ctx: EngineContext): void {
    if (ctx.index === 0) this.narrowed = removals;
  }

  /** The first instance's weighing: `weights[j]` is the final weight of `hosts[j]`. */
  weighed(
    hosts: readonly HostState[],
    weights: Float64Array,
    parts: readonly WeigherPart[],
    ctx: EngineContext,
  ) {
    if (ctx.index !== 0) return;
    this.weighedReached = true;
    this.weighing = { hosts, weights, parts, ctx };
  }

  /**
   * Every host that passed the filters for the first instance (or the best `limit`), best first,
   * ties in input order; null when the first instance never got to weighing.
   */
  weighedHosts(limit?: number): HostWeight[] | null {
    const w = this.weighing;
    if (!this.weighedReached || !w) return this.weighedReached ? [] : null;
    return rankHosts(w.weights, limit).map((j) => ({
      host: w.hosts[j],
      weight: w.weights[j],
      breakdown: w.parts.map((part) => weightPart(part, j, w.hosts[j], w.ctx)),
    }));
  }

  /** weighedHosts without the breakdowns: the same hosts, order and weights. */
  rankedWeights(): RankedWeight[] | null {
    const w = this.weighing;
    if (!this.weighedReached || !w) return this.weighedReached ? [] : null;
    return rankHosts(w.weights).map((j) => ({ host: w.hosts[j], weight: w.weights[j] }));
  }

  /** The first instance's final weight of every weighed host, unranked (what an advisory answer needs). */
  weightsByHost(): Map<HostState, number> | null {
    if (!this.weighedReached) return null;
    const byHost = new Map<HostState, number>();
    const w = this.weighing;
    if (w) for (let j = 0; j < w.hosts.length; j++) byHost.set(w.hosts[j], w.weights[j]);
    return byHost;
  }

  /** Eliminations in decision order (pre-filter, narrowing, then each filter's), the first `limit`. */
  eliminations(limit = Number.POSITIVE_INFINITY): Elimination[] {
    const out: Elimination[] = [];
    const add = (host: HostState, filter: string, index: number, reason: () => string) => {
      if (out.length >= limit) return false;
      out.push({ host: host.host, nodename: host.nodename, filter, reason: reason(), instance_index: index });
      return true;
    };
    const pre = this.prefilter;
    if (pre) {
      const { hosts, kept, check } = pre;
      let next = 0;
      for (let i = 0; i < hosts.length; i++) {
        if (next < kept.length && kept[next] === i) {
          next++;
          continue;
        }
        const host = hosts[i];
        if (!add(host, check.stageOf(host, i) ?? 'Placement', 0, () => check.explain(host, i))) return out;
      }
    }
    for (const r of this.narrowed) if (!add(r.host, r.stage, 0, r.reason)) return out;
    for (const f of this.removals ?? []) {
      const { filter, state } = f.stage;
      for (let k = 0; k < f.hosts.length; k++) {
        const host = f.hosts[k];
        const reason = () => rejectionWords(f, f.rejections[k], host, filter.name, state);
        if (!add(host, filter.name, f.ctx.index, reason)) return out;
      }
    }
    return out;
  }

  /** How many hosts were eliminated, counted without building any. */
  eliminationCount(): number {
    const pre = this.prefilter;
    let n = pre ? pre.hosts.length - pre.kept.length : 0;
    n += this.narrowed.length;
    for (const f of this.removals ?? []) n += f.hosts.length;
    return n;
  }

  top(limit: number): ExplainedTop {
    return {
      weighed: this.weighedHosts(limit) ?? [],
      weighedTotal: this.weighing?.weights.length ?? 0,
      eliminated: this.eliminations(limit),
      eliminatedTotal: this.eliminationCount(),
    };
  }
}

/** The rejection's words for `host`, or a plain note when a plug-in's rejection has none or fails. */
function rejectionWords(
  f: FilterRemovals,
  rejection: Rejection<unknown>,
  host: HostState,
  name: string,
  state: unknown,
): string {
  // A plug-in in plain JavaScript may answer false or anything else that is not a rejection.
  if (typeof (rejection as Partial<Rejection> | null)?.message !== 'function') return `rejected by ${name}`;
  try {
    return rejection.message(host, f.spec, state, f.ctx);
  } catch {
    return `rejected by ${name}`;
  }
}

function weightPart(part: WeigherPart, j: number, host: HostState, ctx: EngineContext): WeightPart {
  const raw = part.raw[j];
  return {
    weigher: part.weigher.name,
    raw,
    normalized: normalized(raw, part.span),
    multiplier: part.multiplier ?? part.weigher.multiplier(host, ctx),
  };
}
