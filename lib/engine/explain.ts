import type { HostState } from '../model/hostState.js';
import type { FilterCount } from './filterHandler.js';

export interface Elimination {
  host: string;
  nodename: string;
  /**
   * The filter (Nova class name), pre-filter stage (`Placement:…`, `compute_status_filter`, …) or
   * narrowing step (`requested_destination`, `ignore_hosts`, `force_hosts`, `force_nodes`) that
   * removed the host.
   */
  filter: string;
  reason: string;
  /** Which instance of a multi-create was being placed (0 for the first). */
  instance_index: number;
}

export interface WeightPart {
  weigher: string;
  raw: number;
  normalized: number;
  multiplier: number;
}

export interface RankedWeight {
  host: HostState;
  weight: number;
}

export interface HostWeight {
  host: HostState;
  /** Σ multiplier × normalised weight. */
  weight: number;
  breakdown: WeightPart[];
}

export interface Placement {
  instance_uuid: string;
  /** The host as it is after this instance's resources were consumed. */
  host: HostState;
  alternates: HostState[];
}

export interface ScheduleDecision {
  request_id: string;
  placements: Placement[];
  /** Every host that passed the filters for the first instance, best first (only when explained). */
  weighed: HostWeight[] | null;
  filter_counts: FilterCount[];
  /**
   * The eliminated hosts and why, in decision order: every one, or the first `limit` (reasons are
   * built on demand, only for the hosts returned; empty unless explained).
   */
  eliminated: (limit?: number) => Elimination[];
  /**
   * For a capped view of a large explained decision without building every row: the best `limit`
   * weighed hosts and the first `limit` eliminations, with how many of each there are in all.
   */
  explainedTop?: (limit: number) => ExplainedTop;
  /**
   * The first instance's final weight per passing host, unranked (cheaper than `weighed` when only
   * the weights are wanted); null when it never got to weighing. Absent on decisions built elsewhere.
   */
  weightsByHost?: () => ReadonlyMap<HostState, number> | null;
  /**
   * `weighed` without the per-weigher breakdowns (what `--json` prints): the same hosts in the same
   * order, at a fraction of the cost. Absent on decisions built elsewhere.
   */
  rankedWeights?: () => RankedWeight[] | null;
  error: { type: 'NoValidHost'; message: string } | null;
}

export interface ExplainedTop {
  weighed: HostWeight[];
  weighedTotal: number;
  eliminated: Elimination[];
  eliminatedTotal: number;
}
