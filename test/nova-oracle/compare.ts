import type { OracleAnswer } from './oracleProcess.js';

/** One verdict or weight where Placid and Nova disagree. */
export interface Difference {
  plugin: string;
  host: string;
  nova: unknown;
  placid: unknown;
}

/** Weights are floats summed in a different order: equal within this. */
export const WEIGHT_TOLERANCE = 1e-6;

/** Both raising counts as agreement (the exception's name differs between Python and Placid). */
function sameVerdict(a: unknown, b: unknown): boolean {
  const raised = (v: unknown) => typeof v === 'string' && v.startsWith('error:');
  return a === b || (raised(a) && raised(b));
}

function sameWeight(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= WEIGHT_TOLERANCE;
  return sameVerdict(a, b);
}

/** Every disagreement between Nova's answer and Placid's on one case. */
export function differences(hosts: readonly string[], nova: OracleAnswer, placid: OracleAnswer): Difference[] {
  if (nova.case_error) throw new Error(`the oracle could not build the case: ${nova.case_error}`);
  const out: Difference[] = [];
  for (const [plugin, verdicts] of Object.entries(nova.filters ?? {})) {
    const mine = placid.filters?.[plugin] ?? [];
    verdicts.forEach((v, i) => {
      if (!sameVerdict(v, mine[i])) out.push({ plugin, host: hosts[i], nova: v, placid: mine[i] });
    });
  }
  for (const [plugin, weights] of Object.entries(nova.weighers ?? {})) {
    const mine = placid.weighers?.[plugin];
    if (typeof weights === 'string' || typeof mine === 'string') {
      if (!sameWeight(weights, mine)) out.push({ plugin, host: '*', nova: weights, placid: mine });
      continue;
    }
    weights.forEach((w, i) => {
      if (!sameWeight(w, mine?.[i])) out.push({ plugin, host: hosts[i], nova: w, placid: mine?.[i] });
    });
  }
  return out;
}

/** Agreement per filter or weigher, counted per host verdict (filters) or per host weight (weighers). */
export class Tally {
  private readonly counts = new Map<string, { agree: number; total: number }>();

  add(nova: OracleAnswer, diffs: readonly Difference[], hostCount: number): void {
    const plugins = [...Object.keys(nova.filters ?? {}), ...Object.keys(nova.weighers ?? {})];
    for (const p of plugins) {
      const c = this.counts.get(p) ?? { agree: 0, total: 0 };
      const missed = new Set(diffs.filter((d) => d.plugin === p).map((d) => d.host));
      const bad = missed.has('*') ? hostCount : missed.size;
      c.total += hostCount;
      c.agree += hostCount - bad;
      this.counts.set(p, c);
    }
  }

  rates(): Record<string, string> {
    return Object.fromEntries(
      [...this.counts].map(([p, c]) => [p, `${((100 * c.agree) / c.total).toFixed(2)}% of ${c.total}`]),
    );
  }
}
