/** Digests of the result that both renderers show: hottest hosts and decision counts. */

import { SKIP_TITLES } from '../../rebalance/skipTitles.js';
import type { SimulationResult, StealHeatmap } from '../result.js';

export interface HostSteal {
  host: string;
  zone: string;
  baseline: { mean: number; peak: number };
  placid: { mean: number; peak: number };
}

/** The hosts with the most steal without Placid (mean over the run), worst first. */
export function hottestHosts(heatmap: StealHeatmap, limit: number): HostSteal[] {
  return heatmap.hosts
    .map((h) => ({ host: h.host, zone: h.zone, baseline: digest(h.baseline), placid: digest(h.placid) }))
    .sort((a, b) => b.baseline.mean - a.baseline.mean || b.baseline.peak - a.baseline.peak)
    .slice(0, limit);
}

function digest(values: readonly number[]): { mean: number; peak: number } {
  if (values.length === 0) return { mean: 0, peak: 0 };
  let sum = 0;
  let peak = 0;
  for (const v of values) {
    sum += v;
    peak = Math.max(peak, v);
  }
  return { mean: sum / values.length, peak };
}

/** Readable names for the decision codes; an unknown code is shown as it is. */
const DECISION_TITLES: Record<string, string> = { moved: 'Moved', ...SKIP_TITLES };

export function decisionTitle(code: string): string {
  return Object.hasOwn(DECISION_TITLES, code) ? DECISION_TITLES[code] : code;
}

export interface DecisionCount {
  decision: string;
  title: string;
  count: number;
}

/** `moved` first, then the skip reasons, most frequent first. */
export function decisionCounts(result: SimulationResult): DecisionCount[] {
  return result.decisions.counts
    .map((c) => ({ decision: c.decision, title: decisionTitle(c.decision), count: c.count }))
    .sort(
      (a, b) =>
        Number(b.decision === 'moved') - Number(a.decision === 'moved') ||
        b.count - a.count ||
        a.decision.localeCompare(b.decision),
    );
}
