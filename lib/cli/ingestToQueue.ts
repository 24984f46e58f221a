/**
 * `placid ingest --queue URL`: the messages go to a real SQS queue, and the ingest Lambda stores
 * them later. Messages that fail validation here are not sent (the stage would dead-letter them);
 * the one check that needs the store (instances on unknown nodes) is left to the stage.
 */
import { parseReportMessage } from '../model/reports.js';
import { SqsQueue } from '../queue/sqs.js';
import { InputError } from './errors.js';
import type { InputMessage } from './ingestInput.js';

export interface QueueRun {
  sent: number;
  reports: number;
  rejected: { where: string; reason: string }[];
}

const SQS_URL = /^https:\/\/sqs\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\/\d{12}\/[A-Za-z0-9_-]{1,80}$/;

/** `queue` is injectable for tests; by default a client for the URL's region. */
export async function sendToQueue(
  url: string,
  messages: readonly InputMessage[],
  queue: SqsQueue = SqsQueue.fromUrl(checkQueueUrl(url)),
): Promise<QueueRun> {
  const rejected: QueueRun['rejected'] = [];
  const valid: InputMessage[] = [];
  let reports = 0;
  const now = new Date();
  for (const m of messages) {
    try {
      const parsed = parseReportMessage(m.body, now, m.where);
      reports += parsed.hypervisors.length + parsed.instances.length;
      valid.push(m);
    } catch (error) {
      rejected.push({ where: m.where, reason: dropSource((error as Error).message, m.where) });
    }
  }
  const result =
    valid.length > 0 ? await queue.sendBatch(valid.map((m) => m.body)) : { sent: [], failed: [] };
  for (const f of result.failed) {
    rejected.push({ where: valid[f.index].where, reason: `the queue refused it: ${f.message} (${f.code})` });
  }
  return { sent: result.sent.length, reports, rejected };
}

export function checkQueueUrl(url: string): string {
  if (!SQS_URL.test(url)) {
    throw new InputError(
      `--queue ${url} is not an SQS queue URL (https://sqs.<region>.amazonaws.com/<account>/<queue>)`,
    );
  }
  return url;
}

function dropSource(message: string, where: string): string {
  return message.startsWith(`${where}: `) ? message.slice(where.length + 2) : message;
}
