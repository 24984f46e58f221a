import type { OracleCase } from './case.js';
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
  return a === b || (raised(a) && raised(b));
}

function sameWeight(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= WEIGHT_TOLERANCE;
  return sameVerdict(a, b);
}

const raised = (v: unknown) => typeof v === 'string' && v.startsWith('error:');

/**
 * The differences docs/nova-differences.md lists, each recognised exactly: a verdict is skipped
 * only when the case has that input and the two answers are the documented pair.
 */
const DOCUMENTED: readonly {
  plugin: string;
  applies: (c: OracleCase, host: Record<string, unknown>, nova: unknown, placid: unknown) => boolean;
}[] = [
  // "A host without a service record": Nova 26 raises (HostState.service is None); Placid assumes it up.
  { plugin: 'ComputeFilter', applies: (_c, h, n, p) => h.service === undefined && raised(n) && p === true },
  // "A host without host_ip": Nova 26 raises in netaddr; Placid fails the host.
  {
    plugin: 'SimpleCIDRAffinityFilter',
    applies: (_c, h, n, p) => h.host_ip == null && raised(n) && p === false,
  },
  // "Symbolic page sizes across host cells": Nova 26 keeps the page size chosen on the first cell tried.
  {
    plugin: 'NUMATopologyFilter',
    applies: (c, h, n, p) =>
      n === false &&
      p === true &&
      symbolicPages(c) &&
      ((h.numa_topology as { cells?: unknown[] })?.cells?.length ?? 0) > 1,
  },
];

function symbolicPages(c: OracleCase): boolean {
  const cells = (c.request.numa_topology as { cells?: { pagesize?: number | null }[] } | null)?.cells ?? [];
  return cells.some((cell) => cell.pagesize === -2 || cell.pagesize === -3);
}

function documented(c: OracleCase, plugin: string, i: number, nova: unknown, placid: unknown): boolean {
  return DOCUMENTED.some((d) => d.plugin === plugin && d.applies(c, c.hosts[i], nova, placid));
}

/** Every disagreement between Nova's answer and Placid's on one case, less the documented ones. */
export function differences(c: OracleCase, nova: OracleAnswer, placid: OracleAnswer): Difference[] {
  if (nova.case_error) throw new Error(`the oracle could not build the case: ${nova.case_error}`);
  const hosts = c.hosts.map((h) => String(h.host));
  const out: Difference[] = [];
  for (const [plugin, verdicts] of Object.entries(nova.filters ?? {})) {
    const mine = placid.filters?.[plugin] ?? [];
    verdicts.forEach((v, i) => {
      if (sameVerdict(v, mine[i]) || documented(c, plugin, i, v, mine[i])) return;
      out.push({ plugin, host: hosts[i], nova: v, placid: mine[i] });
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
