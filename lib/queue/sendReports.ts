/**
 * Sends report messages to the ingest queue, validating each first: a message the ingest stage
 * would dead-letter is not sent but returned with its reason (the one check that needs the store,
 * instances on unknown nodes, is left to the stage). Used by `placid ingest --queue` and the collector.
 */
import { parseReportMessage } from '../model/reports.js';
import type { MessageQueue } from './port.js';

export interface ReportBody {
  body: string;
  /** Names the message in errors, e.g. a file name or `message 3`. */
  where: string;
}

export interface ReportSend {
  sent: number;
  /** Hypervisor and instance reports in the valid messages. */
  reports: number;
  /** `index` points into the caller's messages. */
  rejected: { index: number; reason: string }[];
}

export async function sendReportMessages(
  queue: MessageQueue,
  messages: readonly ReportBody[],
  now = new Date(),
): Promise<ReportSend> {
  const rejected: ReportSend['rejected'] = [];
  const valid: number[] = [];
  let reports = 0;
  messages.forEach((m, index) => {
    try {
      const parsed = parseReportMessage(m.body, now, m.where);
      reports += parsed.hypervisors.length + parsed.instances.length;
      valid.push(index);
    } catch (error) {
      rejected.push({ index, reason: dropSource((error as Error).message, m.where) });
    }
  });
  const result =
    valid.length > 0 ? await queue.sendBatch(valid.map((i) => messages[i].body)) : { sent: [], failed: [] };
  for (const f of result.failed) {
    rejected.push({ index: valid[f.index], reason: `the queue refused it: ${f.message} (${f.code})` });
  }
  return { sent: result.sent.length, reports, rejected };
}

function dropSource(message: string, where: string): string {
  return message.startsWith(`${where}: `) ? message.slice(where.length + 2) : message;
}
