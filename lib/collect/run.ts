/**
 * One collection: read the inventory, run every configured query once over the window, map the
 * series, build a report per compute node and per placed server, pack them into messages. Sending
 * is the caller's (sink.ts), so the same run feeds an SQS queue, the local pipeline or a Lambda.
 */
import { type Clock, systemClock } from '../model/clock.js';
import { mapLimit } from '../store/concurrency.js';
import { type CollectConfig, queryText } from './config.js';
import { InventoryUnavailableError } from './errors.js';
import { SeriesMapper } from './mapping.js';
import { buildMetricTable, type QueryOutcome } from './metricTable.js';
import type { InventorySnapshot, InventorySource, MetricsSource } from './ports.js';
import { QUERY_NAMES, type QueryName } from './queries.js';
import { buildReports, noCounts } from './reports.js';
import type { RunSummary } from './summary.js';
import { type SampleWindow, sampleWindow } from './window.js';

export type CollectPhase = 'inventory' | 'queries' | 'reports';

export interface CollectDeps {
  config: CollectConfig;
  metrics: MetricsSource;
  inventory: InventorySource;
  clock?: Pick<Clock, 'now'>;
  /** Called as the run moves on, e.g. for a progress line on a terminal. */
  progress?: (phase: CollectPhase, done: number, total: number) => void;
}

export interface CollectRun {
  /** Report message bodies, each within the SQS size limit. */
  messages: string[];
  summary: RunSummary;
}

export async function collectOnce(deps: CollectDeps): Promise<CollectRun> {
  const now = new Date((deps.clock ?? systemClock).now());
  const window = sampleWindow(deps.config, now);
  const progress = deps.progress ?? (() => {});
  progress('inventory', 0, 1);
  let inventory: InventorySnapshot;
  try {
    inventory = await deps.inventory.read();
  } catch (error) {
    if (!(error instanceof InventoryUnavailableError)) throw error;
    return { messages: [], summary: failedSummary(now, window, error.message) };
  }
  progress('inventory', 1, 1);
  const outcomes = await runQueries(deps, window, progress);
  const mapper = new SeriesMapper(inventory.servers, inventory.hosts, deps.config.mapping);
  const { table, stats } = buildMetricTable(outcomes, mapper);
  progress('reports', 0, 1);
  const built = buildReports({
    inventory,
    table,
    window,
    config: deps.config,
    reportedAt: now.toISOString(),
  });
  progress('reports', 1, 1);
  const problems = [...inventory.problems, ...built.problems];
  for (const o of outcomes) {
    if (o.error) problems.push(`query ${o.name} failed: ${o.error}`);
    for (const w of o.result?.warnings ?? []) problems.push(`query ${o.name}: prometheus warned: ${w}`);
  }
  const summary: RunSummary = {
    ...built.counts,
    started_at: now.toISOString(),
    window: windowText(window),
    mapping: stats,
    messages: { built: built.messages.length, sent: 0, rejected: [] },
    notes: inventory.notes,
    problems,
    failed: false,
    complete: problems.length === 0,
  };
  return { messages: built.messages, summary };
}

/** Each distinct query text once (several metrics may share one, e.g. node_load5). */
async function runQueries(
  deps: CollectDeps,
  window: SampleWindow,
  progress: NonNullable<CollectDeps['progress']>,
): Promise<QueryOutcome[]> {
  const texts = new Map<QueryName, string | undefined>(
    QUERY_NAMES.map((n) => [n, queryText(deps.config, n)]),
  );
  const distinct = [...new Set([...texts.values()].filter((t): t is string => t !== undefined))];
  let done = 0;
  progress('queries', 0, distinct.length);
  const answers = new Map<string, Pick<QueryOutcome, 'result' | 'error'>>();
  await mapLimit(distinct, deps.config.collect.concurrency, async (text) => {
    try {
      answers.set(text, { result: await deps.metrics.query(text, window) });
    } catch (error) {
      answers.set(text, { error: error instanceof Error ? error.message : String(error) });
    } finally {
      progress('queries', ++done, distinct.length);
    }
  });
  return QUERY_NAMES.map((name) => {
    const text = texts.get(name);
    return { name, text, ...(text === undefined ? {} : answers.get(text)) };
  });
}

function windowText(w: SampleWindow): RunSummary['window'] {
  return { start: w.start.toISOString(), end: w.end.toISOString(), step_seconds: w.stepSeconds };
}

function failedSummary(now: Date, window: SampleWindow, reason: string): RunSummary {
  return {
    started_at: now.toISOString(),
    window: windowText(window),
    ...noCounts(),
    mapping: { unmapped: [], ambiguous: [], otherKind: 0, duplicates: [] },
    messages: { built: 0, sent: 0, rejected: [] },
    notes: [],
    problems: [reason],
    failed: true,
    complete: false,
  };
}
