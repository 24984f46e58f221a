import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { withPowertools } from '../../functions/shared/middleware.js';
import { logger, recordBatchCounts } from '../../functions/shared/powertools.js';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { ManualClock } from '../../lib/model/clock.js';
import { ValidationError } from '../../lib/model/errors.js';
import { parseJsonBody } from '../../lib/queue/jsonBody.js';
import { DEAD_LETTER_ATTRIBUTE } from '../../lib/queue/poison.js';
import { processSqsBatch } from '../../lib/queue/processBatch.js';

interface Report {
  id: string;
  steal: number;
}

function parseReport(body: string): Report {
  const value = parseJsonBody(body) as Partial<Report> | null;
  if (typeof value?.id !== 'string')
    throw new ValidationError('report', [{ path: 'id', message: 'missing' }]);
  if (typeof value.steal !== 'number' || value.steal > 100) {
    throw new ValidationError('report', [{ path: 'steal', message: `must be ≤ 100, got ${value.steal}` }]);
  }
  return { id: value.id, steal: value.steal };
}

/** A stage wired like a real one: the middy handler, the batch helper, local queues on a fake clock. */
function stage(
  store: (report: Report, record: SQSRecord) => Promise<void>,
  afterBatch: () => void = () => {},
) {
  const clock = new ManualClock();
  const dlq = new LocalSqsQueue({ name: 'placid-ingest-dlq', clock });
  const queue = new LocalSqsQueue({
    name: 'placid-ingest',
    clock,
    redrive: { deadLetterQueue: dlq, maxReceiveCount: 3 },
  });
  const handler = withPowertools(async (event: SQSEvent) => {
    const outcome = await processSqsBatch(event, { parse: parseReport, handle: store, deadLetter: dlq });
    recordBatchCounts(outcome.counts);
    afterBatch();
    return outcome.response;
  });
  queue.attach(handler, { batchSize: 10, functionName: 'placid-ingest' });
  return { queue, dlq };
}

const report = (id: string, steal = 3) => JSON.stringify({ id, steal });

describe('an SQS stage on the local queue', () => {
  it('dead-letters poison messages with their reason and stores the rest of the batch', async () => {
    // Prepare
    const stored: string[] = [];
    const { queue, dlq } = stage(async (r) => void stored.push(r.id));
    await queue.sendBatch([report('a'), 'not json', report('b', 140), report('c')]);
    // Act
    const result = await queue.drain({ waitForInvisible: true });
    // Assess
    expect(result.stoppedBy).toBe('empty');
    expect(stored).toEqual(['a', 'c']);
    expect(queue.stats()).toMatchObject({ delivered: 4, succeeded: 4, failed: 0, deadLettered: 0 });
    expect(dlq.messages().map((m) => [m.body, m.attributes[DEAD_LETTER_ATTRIBUTE.error]])).toEqual([
      ['not json', expect.stringMatching(/^message body: \(root\): not valid JSON/)],
      [report('b', 140), 'report: steal: must be ≤ 100, got 140'],
    ]);
  });

  it('applies every message exactly once after a Lambda crash mid-batch and redelivery, when the handler is idempotent', async () => {
    // Prepare: the Lambda dies while storing the third report; nothing after it runs in that invocation
    const crash = Object.assign(new Error('Runtime exited'), { name: 'Runtime.ExitError' });
    const applied = new Set<string>();
    const firstWrites: string[] = [];
    let dying = false;
    let crashed = false;
    const { queue, dlq } = stage(
      async (r) => {
        if (dying) throw crash;
        if (r.id === 'c' && !crashed) {
          crashed = dying = true;
          throw crash;
        }
        if (!applied.has(r.id)) firstWrites.push(r.id);
        applied.add(r.id); // a set: re-applying a redelivered report changes nothing
      },
      () => {
        if (!dying) return;
        dying = false;
        throw crash; // the invocation never returns its response
      },
    );
    const ids = ['a', 'b', 'c', 'd', 'e'];
    await queue.sendBatch(ids.map((id) => report(id)));
    // Act
    const result = await queue.drain({ waitForInvisible: true });
    // Assess
    expect(result.handlerErrors).toEqual([crash]);
    expect(firstWrites).toEqual(ids);
    expect(queue.stats()).toMatchObject({ delivered: 10, failed: 5, succeeded: 5 });
    expect(queue.size).toBe(0);
    expect(dlq.size).toBe(0);
  });

  it('retries only the record whose write failed transiently', async () => {
    let throttled = false;
    const stored: string[] = [];
    const { queue } = stage(async (r) => {
      if (r.id === 'b' && !throttled) {
        throttled = true;
        throw Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException' });
      }
      stored.push(r.id);
    });
    await queue.sendBatch(['a', 'b', 'c'].map((id) => report(id)));
    await queue.drain({ waitForInvisible: true });
    expect(stored).toEqual(['a', 'c', 'b']);
    expect(queue.stats()).toMatchObject({ delivered: 4, failed: 1, succeeded: 3 });
  });

  it('puts the message correlation id on the logger for the invocation only', async () => {
    const seen: unknown[] = [];
    const { queue } = stage(async () => void seen.push(logger.getCorrelationId()));
    await queue.send(report('a'), { correlation_id: 'req-42' });
    await queue.drain();
    expect(seen).toEqual(['req-42']);
    expect(logger.getCorrelationId()).toBeUndefined();
  });
});
