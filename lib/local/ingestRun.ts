/** `LocalPipeline.ingest`: send report messages through the ingest stage and account for each one. */
import { ConfigError } from '../model/errors.js';
import { DEAD_LETTER_ATTRIBUTE } from '../queue/poison.js';
import type { OutgoingMessage } from '../queue/port.js';
import { INGEST_STAGE, type IngestPipelineStage, type IngestTally } from './ingestPipelineStage.js';
import type { LocalPipeline } from './pipeline.js';

export interface RejectedMessage {
  /** Position of the message in the caller's list. */
  index: number;
  reason: string;
}

export interface IngestReport {
  messages: number;
  /** Reports (hypervisor + instance) that replaced or created a stored state. */
  stored: number;
  /** Newer host and instance reports of a state written less than a heartbeat ago: not written again. */
  unchanged: number;
  /** Reports no newer than what was stored (duplicates, out of order). */
  stale: number;
  samples: number;
  /** Sample pages (items) the samples were written in. */
  pages: number;
  /** Every message that was not stored, in input order, with the reason. */
  rejected: RejectedMessage[];
}

export async function runIngest(
  pipeline: LocalPipeline,
  messages: readonly (string | OutgoingMessage)[],
): Promise<IngestReport> {
  const stage = pipeline.stage(INGEST_STAGE) as Partial<IngestPipelineStage>;
  if (typeof stage.tally !== 'function') {
    throw new ConfigError(
      `the pipeline's ${INGEST_STAGE} stage keeps no tally; build it with ingestPipelineStage()`,
    );
  }
  const { queue, deadLetter } = pipeline.queues(INGEST_STAGE);
  const before = { ...stage.tally() };
  const sent = await queue.sendBatch(messages);
  const rejected: RejectedMessage[] = sent.failed.map((f) => ({
    index: f.index,
    reason: `the queue refused it: ${f.message} (${f.code})`,
  }));
  await pipeline.drain();

  const tally = stage.tally();
  const indexById = new Map(sent.sent.map((s) => [s.messageId, s.index]));
  for (const dead of deadLetter.messages()) {
    const sourceId = dead.attributes[DEAD_LETTER_ATTRIBUTE.sourceMessageId] ?? dead.messageId;
    const index = indexById.get(sourceId);
    if (index === undefined) continue; // from an earlier run
    rejected.push({ index, reason: deadLetterReason(dead.attributes, tally, sourceId) });
    indexById.delete(sourceId);
  }
  // A handler that never settles a message (the drain guard tripped) must not look like success.
  const stillQueued = new Set(queue.messages().map((m) => m.messageId));
  for (const [messageId, index] of indexById) {
    if (stillQueued.has(messageId))
      rejected.push({ index, reason: 'still queued after the drain; not stored' });
  }
  rejected.sort((a, b) => a.index - b.index);
  return {
    messages: messages.length,
    stored: tally.stored - before.stored,
    unchanged: tally.unchanged - before.unchanged,
    stale: tally.stale - before.stale,
    samples: tally.samples - before.samples,
    pages: tally.pages - before.pages,
    rejected,
  };
}

/** The reason the ingest handler attached, or for a redriven message the last error that failed it. */
function deadLetterReason(
  attributes: Readonly<Record<string, string>>,
  tally: Readonly<IngestTally>,
  messageId: string,
): string {
  const reason = attributes[DEAD_LETTER_ATTRIBUTE.error];
  // The caller knows the message by its position; the id prefix would only repeat it.
  if (reason) return reason.replace(`message ${messageId}: `, '');
  const last = tally.lastErrors.get(messageId);
  const detail =
    last instanceof Error ? `${last.name}: ${last.message}` : last === undefined ? 'unknown' : String(last);
  return `failed every delivery and was moved to the dead-letter queue (last error: ${detail})`;
}
