/**
 * The answers of every query, mapped onto VMs and compute nodes: per query, per entity, the value
 * at each step. Series that map to nothing, to several VMs, or twice to one entity are counted
 * for the run summary here, never dropped silently.
 */
import type { SeriesMapper } from './mapping.js';
import type { QueryResult } from './ports.js';
import { QUERY_SPECS, type QueryName } from './queries.js';

export interface QueryOutcome {
  name: QueryName;
  /** Undefined when the query is turned off in the config. */
  text?: string;
  result?: QueryResult;
  /** Why the query failed (after retries). */
  error?: string;
}

export interface SeriesNote {
  query: QueryName;
  labels: string;
}

export interface MappingStats {
  /** Each unmapped series once, with every query that returned it. */
  unmapped: { labels: string; queries: QueryName[] }[];
  ambiguous: (SeriesNote & { value: string })[];
  /** Series of a VM query that are a host's (or the reverse): expected with unfiltered queries. */
  otherKind: number;
  /** A second series for an entity in one query (two scrape jobs for one VM, say); the first is used. */
  duplicates: (SeriesNote & { entity: string })[];
}

export type Lookup =
  | { status: 'ok'; value: number }
  | { status: 'missing' }
  /** The query failed, so nothing is known. */
  | { status: 'failed' }
  /** The query is turned off. */
  | { status: 'off' };

export class MetricTable {
  constructor(
    private readonly values: ReadonlyMap<QueryName, ReadonlyMap<string, ReadonlyMap<number, number>>>,
    private readonly failed: ReadonlySet<QueryName>,
    private readonly off: ReadonlySet<QueryName>,
  ) {}

  get(name: QueryName, entity: string, t: number): Lookup {
    if (this.off.has(name)) return { status: 'off' };
    if (this.failed.has(name)) return { status: 'failed' };
    const value = this.values.get(name)?.get(entity)?.get(t);
    return value === undefined ? { status: 'missing' } : { status: 'ok', value };
  }

  /** True when any query of the table has a series for the entity. */
  hasSeries(entity: string): boolean {
    for (const byEntity of this.values.values()) if (byEntity.has(entity)) return true;
    return false;
  }
}

export function buildMetricTable(
  outcomes: readonly QueryOutcome[],
  mapper: SeriesMapper,
): { table: MetricTable; stats: MappingStats } {
  const stats: MappingStats = { unmapped: [], ambiguous: [], otherKind: 0, duplicates: [] };
  const unmapped = new Map<string, QueryName[]>();
  const values = new Map<QueryName, Map<string, Map<number, number>>>();
  const failed = new Set<QueryName>();
  const off = new Set<QueryName>();
  for (const outcome of outcomes) {
    if (outcome.text === undefined) off.add(outcome.name);
    if (outcome.error !== undefined) failed.add(outcome.name);
    if (!outcome.result) continue;
    const kind = QUERY_SPECS[outcome.name].kind;
    const other = kind === 'vm' ? 'host' : 'vm';
    const byEntity = new Map<string, Map<number, number>>();
    const series = outcome.result.series
      .map((s) => ({ ...s, text: formatLabels(s.labels) }))
      .sort((a, b) => a.text.localeCompare(b.text));
    for (const s of series) {
      const note = { query: outcome.name, labels: s.text };
      const resolved = mapper.resolve(kind, s.labels);
      if (resolved.outcome === 'ambiguous') {
        stats.ambiguous.push({ ...note, value: `${resolved.label}=${resolved.value}` });
      } else if (resolved.outcome === 'unmapped') {
        if (mapper.resolve(other, s.labels).outcome === 'mapped') stats.otherKind += 1;
        else unmapped.set(s.text, [...(unmapped.get(s.text) ?? []), outcome.name]);
      } else if (byEntity.has(resolved.id)) {
        stats.duplicates.push({ ...note, entity: resolved.id });
      } else {
        byEntity.set(resolved.id, new Map(s.points.map((p) => [p.t, p.v])));
      }
    }
    values.set(outcome.name, byEntity);
  }
  stats.unmapped = [...unmapped].map(([labels, queries]) => ({ labels, queries }));
  return { table: new MetricTable(values, failed, off), stats };
}

/** `{instance="vm-a:9100",job="node"}`, the way Prometheus prints a series. */
export function formatLabels(labels: Readonly<Record<string, string>>): string {
  const { __name__: name, ...rest } = labels;
  const inner = Object.keys(rest)
    .sort()
    .map((k) => `${k}=${JSON.stringify(rest[k])}`)
    .join(',');
  return `${name ?? ''}{${inner}}`;
}
