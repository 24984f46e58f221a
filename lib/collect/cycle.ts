/**
 * One run end to end: collect, send, and fold what the sink refused into the summary. Shared by
 * `placid collect` and the collector Lambda.
 */
import { type CollectDeps, collectOnce } from './run.js';
import type { ReportSink } from './sink.js';
import type { RunSummary } from './summary.js';

/** How a run ended, as `placid collect` exit statuses (docs/collect.md). */
export const COLLECT_EXIT = { complete: 0, incomplete: 1, usage: 2, internal: 3, failed: 4 } as const;

export async function collectAndSend(deps: CollectDeps, sink: ReportSink): Promise<RunSummary> {
  const { messages, summary } = await collectOnce(deps);
  if (messages.length === 0) return summary;
  const outcome = await sink.send(messages);
  const problems = [...summary.problems];
  if (outcome.rejected.length > 0) {
    problems.push(
      `${outcome.rejected.length} of ${messages.length} messages were not accepted by ${sink.target}`,
    );
  }
  return {
    ...summary,
    messages: { built: messages.length, sent: outcome.sent, rejected: outcome.rejected },
    problems,
    failed: outcome.sent === 0,
    complete: problems.length === 0,
  };
}

export function exitStatusOf(summary: RunSummary): number {
  if (summary.failed) return COLLECT_EXIT.failed;
  return summary.complete ? COLLECT_EXIT.complete : COLLECT_EXIT.incomplete;
}
