/**
 * `placid ingest --queue URL`: the messages go to a real SQS queue, and the ingest Lambda stores
 * them later. Messages that fail validation here are not sent (lib/queue/sendReports.ts).
 */
import { sendReportMessages } from '../queue/sendReports.js';
import { SqsQueue } from '../queue/sqs.js';
import type { InputMessage } from './ingestInput.js';
import { checkQueueUrl } from './queueUrl.js';

export { checkQueueUrl };

export interface QueueRun {
  sent: number;
  reports: number;
  rejected: { where: string; reason: string }[];
}

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
