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
  private prefilter: { hosts: readonly HostState[]; check: HostCheck } | null = null;
  private narrowed: readonly NarrowRemoval[] = [];
  /** Every filter's removals, filter by filter and instance by instance (when explained). */
  readonly removals: FilterRemovals[] | null;
  /** Null until the first instance gets as far as weighing (then possibly over no host). */
  private weighing: Weighing | null = null;

  /** `explains` false: only the first instance's weights are kept (no eliminations, no breakdowns). */
  constructor(readonly explains: boolean) {
    this.removals = explains ? [] : null;
  }

  /** The pre-filter ran `check` over the fleet's hosts (asked again for the stage of each when read). */
  prefiltered(hosts: readonly HostState[], check: HostCheck): void {
    if (this.explains) this.prefilter = { hosts, check };
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
    if (ctx.index === 0) this.weighing = { hosts, weights, parts, ctx };
  }

  /**
   * Every host that passed the filters for the first instance (or the best `limit`), best first,
   * ties in input order; null when the first instance never got to weighing.
   */
  weighedHosts(limit?: number): HostWeight[] | null {
    const w = this.weighing;
    if (!w) return null;
    return rankHosts(w.weights, limit).map((j) => ({
      host: w.hosts[j],
      weight: w.weights[j],
      breakdown: w.parts.map((part) => weightPart(part, j, w.hosts[j], w.ctx)),
    }));
  }

  /** weighedHosts without the breakdowns: the same hosts, order and weights. */
  rankedWeights(): RankedWeight[] | null {
    const w = this.weighing;
    if (!w) return null;
    return rankHosts(w.weights).map((j) => ({ host: w.hosts[j], weight: w.weights[j] }));
  }

  /** The first instance's final weight of every weighed host, unranked (what an advisory answer needs). */
  weightsByHost(): Map<HostState, number> | null {
    const w = this.weighing;
    if (!w) return null;
    const byHost = new Map<HostState, number>();
    for (let j = 0; j < w.hosts.length; j++) byHost.set(w.hosts[j], w.weights[j]);
    return byHost;
  }

  /** Eliminations in decision order (pre-filter, narrowing, then each filter's), the first `limit`. */
  eliminations(limit = Number.POSITIVE_INFINITY): Elimination[] {
    const out: Elimination[] = [];
    const pre = this.prefilter;
    if (pre) {
      const { hosts, check } = pre;
      for (let i = 0; i < hosts.length && out.length < limit; i++) {
        const stage = check.stageOf(hosts[i], i);
        if (stage !== null) out.push(elimination(hosts[i], stage, 0, check.explain(hosts[i], i)));
      }
    }
    for (const r of this.narrowed) {
      if (out.length >= limit) return out;
      out.push(elimination(r.host, r.stage, 0, r.reason()));
    }
    for (const f of this.removals ?? []) {
      const { filter, state } = f.stage;
      for (let k = 0; k < f.hosts.length && out.length < limit; k++) {
        const reason = rejectionWords(f, f.rejections[k], f.hosts[k], filter.name, state);
        out.push(elimination(f.hosts[k], filter.name, f.ctx.index, reason));
      }
    }
    return out;
  }

  /** How many hosts were eliminated, counted without building any. */
  eliminationCount(): number {
    let n = 0;
    const pre = this.prefilter;
    if (pre) for (let i = 0; i < pre.hosts.length; i++) if (pre.check.stageOf(pre.hosts[i], i) !== null) n++;
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

function elimination(host: HostState, filter: string, index: number, reason: string): Elimination {
  return { host: host.host, nodename: host.nodename, filter, reason, instance_index: index };
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
