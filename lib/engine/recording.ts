import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { BufferLoan, type BufferPool } from './bufferPool.js';
import type { EngineContext } from './context.js';
import { DecisionReleasedError } from './errors.js';
import type {
  Elimination,
  EliminationVisitor,
  ExplainedTop,
  HostWeight,
  RankedWeight,
  WeightPart,
} from './explain.js';
import { rejectionMessage } from './filter.js';
import type { Stage } from './filterHandler.js';
import { NARROW_STAGES, narrowReason } from './narrow.js';
import type { HostCheck } from './prefilter/hostCheck.js';
import { FACT_WIDTH } from './weighers/factRows.js';
import { normalized, rankHosts, type WeigherRecord } from './weighing.js';

/** Which hosts the pre-filter kept (1) out of the fleet, and the check that can name the rest. */
interface PrefilterRecord {
  hosts: readonly HostState[];
  kept: Uint8Array;
  check: HostCheck;
}

/** The narrowing step (NARROW_STAGES index + 1) that removed each position, 0 for none. */
interface NarrowRecord {
  hosts: readonly HostState[];
  removedBy: Uint8Array;
  spec: RequestSpec;
}

/** The filter stage (position + 1) that removed each position of one instance's hosts. */
interface FilterRecord {
  hosts: readonly HostState[];
  removedBy: Uint16Array;
  stages: readonly Stage[];
  spec: RequestSpec;
  ctx: EngineContext;
}

/** The first instance's survivors, their final weights and each weigher's part. */
interface WeighRecord {
  hosts: readonly HostState[];
  positions: Int32Array;
  weights: Float64Array;
  weighers: readonly WeigherRecord[];
  ctx: EngineContext;
}

/**
 * An explained decision is the same run as an unexplained one, recorded: each stage over candidate
 * positions notes which positions it removed (a typed array per stage, no objects), and the
 * weighing keeps the survivors' weights. Eliminations and the weighed list, with their reasons and
 * breakdowns, are built from the recording only when someone reads them.
 *
 * Its typed arrays are borrowed from the scheduler's pool: `release()` gives them back for the next
 * decision, after which every read throws DecisionReleasedError (never an explanation built from
 * another decision's arrays). A record never released is garbage collected with its arrays.
 */
export class DecisionRecord {
  /** Null once released. */
  private loan: BufferLoan | null;

  /** `explains` false: only the first instance's weights are kept (no eliminations, no breakdowns). */
  constructor(
    pool: BufferPool,
    readonly explains = true,
  ) {
    this.loan = new BufferLoan(pool);
  }

  private prefilter: PrefilterRecord | null = null;
  private narrowed: NarrowRecord | null = null;
  private readonly filters: FilterRecord[] = [];
  private weighing: WeighRecord | null = null;
  private readonly held: (() => void)[] = [];
  /** True once the first instance got as far as weighing (an empty weighed list, not none). */
  private weighedReached = false;

  prefiltered(hosts: readonly HostState[], positions: Int32Array, count: number, check: HostCheck): void {
    if (!this.explains) return;
    const kept = this.live('prefiltered').zeroed(Uint8Array, hosts.length);
    for (let j = 0; j < count; j++) kept[positions[j]] = 1;
    this.prefilter = { hosts, kept, check };
  }

  /** Where the first instance's narrowing records its removals (later instances narrow nothing new). */
  narrowing(hosts: readonly HostState[], spec: RequestSpec, ctx: EngineContext): Uint8Array | null {
    if (ctx.index !== 0 || !this.explains) return null;
    const removedBy = this.live('narrowing').zeroed(Uint8Array, hosts.length);
    this.narrowed = { hosts, removedBy, spec };
    return removedBy;
  }

  /** Where one instance's filter run records which stage removed each of `hosts` (all 0 to start). */
  filterRemovals(hosts: number): Uint16Array {
    return this.live('filterRemovals').zeroed(Uint16Array, hosts);
  }

  /**
   * Calls `giveBack` on release(): something the recording reads until then that is not the
   * pool's (a fleet's fact rows, FleetIndex.lendFactRows). At once when released already.
   */
  hold(giveBack: () => void): void {
    if (this.loan) this.held.push(giveBack);
    else giveBack();
  }

  /** Where a weigher's raw weights are kept: a copy of raw[0..count). */
  keptRaw(raw: Float64Array, count: number): Float64Array {
    return this.live('keptRaw').copyOf(Float64Array, raw, count);
  }

  /** One instance's filter run: `removedBy` (from filterRemovals) as sieve recorded it, and its stages. */
  filtered(
    hosts: readonly HostState[],
    removedBy: Uint16Array,
    stages: readonly Stage[],
    spec: RequestSpec,
    ctx: EngineContext,
  ): void {
    this.filters.push({ hosts, removedBy, stages, spec, ctx });
  }

  /** The first instance's weighing (weights[0..count) of the survivors at positions[0..count)). */
  weighed(
    hosts: readonly HostState[],
    positions: Int32Array,
    weights: Float64Array,
    count: number,
    weighers: readonly WeigherRecord[],
    ctx: EngineContext,
  ): void {
    if (ctx.index !== 0) return;
    this.weighedReached = true;
    if (count === 0) return;
    const loan = this.live('weighed');
    this.weighing = {
      hosts,
      positions: loan.copyOf(Int32Array, positions, count),
      weights: loan.copyOf(Float64Array, weights, count),
      weighers,
      ctx,
    };
  }

  /**
   * Every host that passed the filters for the first instance (or the best `limit`), best first,
   * ties in input order; null when the first instance never got to weighing.
   */
  weighedHosts(limit?: number): HostWeight[] | null {
    this.live('weighed hosts');
    if (!this.weighedReached) return null;
    const w = this.weighing;
    if (!w) return [];
    return rankHosts(w.weights, limit).map((j) => {
      const host = w.hosts[w.positions[j]];
      return { host, weight: w.weights[j], breakdown: w.weighers.map((r) => weightPart(r, w, j, host)) };
    });
  }

  /** weighedHosts without the breakdowns: the same hosts, order and weights. */
  rankedWeights(): RankedWeight[] | null {
    this.live('ranked weights');
    if (!this.weighedReached) return null;
    const w = this.weighing;
    if (!w) return [];
    return rankHosts(w.weights).map((j) => ({ host: w.hosts[w.positions[j]], weight: w.weights[j] }));
  }

  /**
   * The final weight of every host that passed the filters for the first instance, unranked and
   * without breakdowns (what an advisory answer needs: ranking and breakdowns are most of
   * weighedHosts' cost); null when the first instance never got to weighing.
   */
  weightsByHost(): Map<HostState, number> | null {
    this.live('weights by host');
    if (!this.weighedReached) return null;
    const byHost = new Map<HostState, number>();
    const w = this.weighing;
    if (!w) return byHost;
    for (let j = 0; j < w.weights.length; j++) byHost.set(w.hosts[w.positions[j]], w.weights[j]);
    return byHost;
  }

  /** Eliminations in decision order (pre-filter, narrowing, then each filter's), the first `limit`. */
  eliminations(limit = Number.POSITIVE_INFINITY): Elimination[] {
    const out: Elimination[] = [];
    this.eachElimination(
      (host, filter, index, reason) => out.push(elimination(host, filter, index, reason)),
      limit,
    );
    return out;
  }

  /**
   * eliminations without the objects: `visit` gets each one's parts, in the same order, the first
   * `limit` (a writer that prints 13k rows straight away needs no row to outlive its line).
   */
  eachElimination(visit: EliminationVisitor, limit = Number.POSITIVE_INFINITY): void {
    this.live('eliminations');
    let n = 0;
    const pre = this.prefilter;
    if (pre) {
      const { hosts, kept, check } = pre;
      for (let i = 0; i < hosts.length && n < limit; i++) {
        if (kept[i] === 1) continue;
        const host = hosts[i];
        visit(host, check.stageOf(host, i) ?? 'Placement', 0, check.explain(host, i));
        n++;
      }
    }
    const narrowed = this.narrowed;
    if (narrowed) {
      const { hosts, removedBy, spec } = narrowed;
      NARROW_STAGES.forEach((stage, s) => {
        for (let i = 0; i < hosts.length && n < limit; i++)
          if (removedBy[i] === s + 1) {
            visit(hosts[i], stage, 0, narrowReason(stage, spec));
            n++;
          }
      });
    }
    for (const f of this.filters) {
      if (n >= limit) break;
      const byStage: number[][] = f.stages.map(() => []);
      for (let i = 0; i < f.hosts.length; i++) if (f.removedBy[i] > 0) byStage[f.removedBy[i] - 1].push(i);
      f.stages.forEach((stage, s) => {
        for (const i of byStage[s]) {
          if (n >= limit) return;
          const host = f.hosts[i];
          visit(host, stage.filter.name, f.ctx.index, filterReason(stage, host, f));
          n++;
        }
      });
    }
  }

  /** How many hosts the stages eliminated, counted from the recording (nothing is built). */
  eliminationCount(): number {
    this.live('elimination count');
    let n = 0;
    const pre = this.prefilter;
    if (pre) for (let i = 0; i < pre.kept.length; i++) n += 1 - pre.kept[i];
    const narrowed = this.narrowed;
    if (narrowed) for (let i = 0; i < narrowed.removedBy.length; i++) if (narrowed.removedBy[i] > 0) n++;
    for (const f of this.filters) for (let i = 0; i < f.removedBy.length; i++) if (f.removedBy[i] > 0) n++;
    return n;
  }

  top(limit: number): ExplainedTop {
    this.live('explained top');
    return {
      weighed: this.weighedHosts(limit) ?? [],
      weighedTotal: this.weighing?.weights.length ?? 0,
      eliminated: this.eliminations(limit),
      eliminatedTotal: this.eliminationCount(),
    };
  }

  /**
   * Gives the recording's arrays back to the pool; idempotent. Everything the decision returned
   * before stays valid (it holds numbers and hosts, never the arrays).
   */
  release(): void {
    if (!this.loan) return;
    this.loan.returnAll();
    this.loan = null;
    for (const giveBack of this.held) giveBack();
    this.held.length = 0;
    this.prefilter = null;
    this.narrowed = null;
    this.filters.length = 0;
    this.weighing = null;
  }

  /** The loan, or DecisionReleasedError naming `read` once released. */
  private live(read: string): BufferLoan {
    if (!this.loan) throw new DecisionReleasedError(read);
    return this.loan;
  }
}

function elimination(host: HostState, filter: string, index: number, reason: string): Elimination {
  return { host: host.host, nodename: host.nodename, filter, reason, instance_index: index };
}

/**
 * The filter's own words for a host it removed: its verdict asked again for this host (the run
 * kept only which stage removed it) and the rejection rendered, or a plain note when that fails.
 */
function filterReason(stage: Stage, host: HostState, f: FilterRecord): string {
  const { filter, state } = stage;
  try {
    return rejectionMessage(filter, host, f.spec, state, f.ctx) ?? `rejected by ${filter.name}`;
  } catch {
    return `rejected by ${filter.name}`;
  }
}

function weightPart(r: WeigherRecord, w: WeighRecord, j: number, host: HostState): WeightPart {
  const { weigher } = r;
  let raw = r.raw ? r.raw[j] : r.rows![w.positions[j] * FACT_WIDTH + r.slot];
  if (weigher.minval !== undefined && raw < weigher.minval) raw = weigher.minval;
  if (weigher.maxval !== undefined && raw > weigher.maxval) raw = weigher.maxval;
  return {
    weigher: weigher.name,
    raw,
    normalized: normalized(raw, r.span),
    multiplier: r.multiplier ?? weigher.multiplier(host, w.ctx),
  };
}
