/**
 * Where a run's messages go: a real SQS queue here (validated first, sent in batches within the SQS
 * limits, like `placid ingest --queue`), or the local pipeline (lib/local/localSink.ts).
 */
import type { MessageQueue } from '../queue/port.js';
import { sendReportMessages } from '../queue/sendReports.js';
import { SqsQueue } from '../queue/sqs.js';

export interface SendOutcome {
  sent: number;
  /** `message` counts from 1, in the order of the run's messages. */
  rejected: { message: number; reason: string }[];
}

export interface ReportSink {
  /** Where the messages go, for the summary. */
  readonly target: string;
  send(bodies: readonly string[]): Promise<SendOutcome>;
  close(): Promise<void>;
}

/** An SQS queue (the URL was checked by the caller); `queue` is injectable (a local stand-in, tests). */
export function queueSink(url: string, queue: MessageQueue = SqsQueue.fromUrl(url)): ReportSink {
  return {
    target: url,
    async send(bodies) {
      const messages = bodies.map((body, i) => ({ body, where: `message ${i + 1}` }));
      const run = await sendReportMessages(queue, messages);
      return {
        sent: run.sent,
        rejected: run.rejected.map((r) => ({ message: r.index + 1, reason: r.reason })),
      };
    },
    async close() {},
  };
}
