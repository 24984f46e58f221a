/**
 * `placid ingest --queue URL`: the messages go to a real SQS queue, and the ingest Lambda stores
 * them later. Messages that fail validation here are not sent (lib/queue/sendReports.ts).
 */
import { sendReportMessages } from '../queue/sendReports.js';
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
  const run = await sendReportMessages(queue, messages);
  const rejected = run.rejected.map((r) => ({ where: messages[r.index].where, reason: r.reason }));
  return { sent: run.sent, reports: run.reports, rejected };
}

export function checkQueueUrl(url: string): string {
  if (!SQS_URL.test(url)) {
    throw new InputError(
      `--queue ${url} is not an SQS queue URL (https://sqs.<region>.amazonaws.com/<account>/<queue>)`,
    );
  }
  return url;
}
