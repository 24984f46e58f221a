import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { PlacidError, ValidationError } from '../../lib/model/errors.js';
import { parseJsonBody } from '../../lib/queue/jsonBody.js';
import { DEAD_LETTER_ATTRIBUTE } from '../../lib/queue/poison.js';
import type { MessageQueue } from '../../lib/queue/port.js';
import { processSqsBatch } from '../../lib/queue/processBatch.js';
import { sqsEvent, sqsRecord } from './sqsRecords.js';

interface Sample {
  steal: number;
}

/** Accepts `{"steal": 0..100}`; anything else is a ValidationError. */
function parseSample(body: string): Sample {
  const value = parseJsonBody(body) as { steal?: unknown };
  if (typeof value?.steal !== 'number' || value.steal < 0 || value.steal > 100) {
    throw new ValidationError('sample', [
      { path: 'steal', message: `must be a number 0..100, got ${JSON.stringify(value?.steal)}` },
    ]);
  }
  return { steal: value.steal };
}

class TransientError extends PlacidError {}

function setup(handle: (item: Sample, record: SQSRecord) => Promise<void> = async () => {}) {
  const deadLetter = new LocalSqsQueue({ name: 'placid-dlq' });
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger = { warn: (m: string) => void warnings.push(m), error: (m: string) => void errors.push(m) };
  return {
    deadLetter,
    warnings,
    errors,
    run: (records: SQSRecord[], dlq: MessageQueue = deadLetter) =>
      processSqsBatch(sqsEvent(...records), { parse: parseSample, handle, deadLetter: dlq, logger }),
  };
}

const good = (id: string, steal = 5) => sqsRecord(JSON.stringify({ steal }), { messageId: id });

describe('processSqsBatch', () => {
  it('handles every valid record and reports no failures', async () => {
    // Prepare
    const seen: number[] = [];
    const { run } = setup(async (item) => void seen.push(item.steal));
    // Act
    const outcome = await run([good('a', 1), good('b', 2)]);
    // Assess
    expect(outcome.response).toEqual({ batchItemFailures: [] });
    expect(outcome.counts).toEqual({ stored: 2, rejected: 0, retried: 0 });
    expect(seen).toEqual([1, 2]);
  });

  it.each([
    ['not JSON', '{"steal":'],
    ['a value out of range', '{"steal":140}'],
    ['the wrong type', '{"steal":"high"}'],
  ])('sends a message that is %s to the dead-letter queue and reports it as done', async (_name, body) => {
    const { run, deadLetter } = setup();
    const outcome = await run([sqsRecord(body, { messageId: 'bad' })]);
    expect(outcome.response.batchItemFailures).toEqual([]);
    expect(outcome.counts).toEqual({ stored: 0, rejected: 1, retried: 0 });
    expect(deadLetter.messages()).toEqual([
      expect.objectContaining({
        body,
        attributes: expect.objectContaining({
          [DEAD_LETTER_ATTRIBUTE.sourceMessageId]: 'bad',
          [DEAD_LETTER_ATTRIBUTE.error]: expect.stringMatching(/^(message body|sample): /),
        }),
      }),
    ]);
  });

  it('does not let a poison message hold up the rest of its batch', async () => {
    const stored: string[] = [];
    const { run, deadLetter } = setup(async (_item, record) => void stored.push(record.messageId));
    const outcome = await run([good('a'), sqsRecord('{"steal":140}', { messageId: 'bad' }), good('c')]);
    expect(stored).toEqual(['a', 'c']);
    expect(outcome.rejections).toEqual([{ messageId: 'bad', reason: expect.stringContaining('got 140') }]);
    expect(deadLetter.size).toBe(1);
  });

  it('reports a transient failure in batchItemFailures so only that record is retried', async () => {
    const { run, deadLetter, warnings } = setup(async (_item, record) => {
      if (record.messageId === 'b') throw new TransientError('throttled');
    });
    const outcome = await run([good('a'), good('b'), good('c')]);
    expect(outcome.response).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
    expect(outcome.counts).toEqual({ stored: 2, rejected: 0, retried: 1 });
    expect(deadLetter.size).toBe(0);
    expect(warnings).toHaveLength(1);
  });

  it('retries a poison message when the dead-letter queue cannot take it, so nothing is dropped', async () => {
    const broken: MessageQueue = {
      send: async () => {
        throw new Error('dlq down');
      },
      sendBatch: async () => ({ sent: [], failed: [] }),
    };
    const { run, errors } = setup();
    const outcome = await run([sqsRecord('nope', { messageId: 'bad' })], broken);
    expect(outcome.response).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad' }] });
    expect(outcome.counts).toEqual({ stored: 0, rejected: 0, retried: 1 });
    expect(errors).toHaveLength(1);
  });

  it('treats a ValidationError raised while handling as poison too', async () => {
    const { run, deadLetter } = setup(async () => {
      throw new ValidationError('report', [{ path: 'host', message: 'unknown host' }]);
    });
    const outcome = await run([good('a')]);
    expect(outcome.counts.rejected).toBe(1);
    expect(deadLetter.messages()[0].attributes[DEAD_LETTER_ATTRIBUTE.error]).toBe(
      'report: host: unknown host',
    );
  });

  it('lets the caller decide which errors are poison', async () => {
    const deadLetter = new LocalSqsQueue({ name: 'placid-dlq' });
    const outcome = await processSqsBatch(sqsEvent(good('a')), {
      parse: parseSample,
      handle: async () => {
        throw new TransientError('poison by policy');
      },
      deadLetter,
      isPoison: (error) => error instanceof TransientError,
    });
    expect(outcome.counts).toEqual({ stored: 0, rejected: 1, retried: 0 });
  });
});

describe('parseJsonBody', () => {
  it('parses JSON', () => {
    expect(parseJsonBody('{"a":[1]}')).toEqual({ a: [1] });
  });

  it('reports a body that is not JSON as a ValidationError naming the source', () => {
    expect(() => parseJsonBody('{', 'ingest message')).toThrow(/^ingest message: \(root\): not valid JSON/);
  });
});

describe('processSqsBatch: one classification of failures (lib/queue/failure.ts)', () => {
  it.each([
    // Issue 12 items 1 and 2: these used to be retried until SQS dead-lettered them without a reason.
    ['a URIError from a key built from the message', new URIError('URI malformed')],
    [
      'a value lib-dynamodb cannot marshal',
      new Error('Number 4e+15 is greater than Number.MAX_SAFE_INTEGER. Use BigInt.'),
    ],
    [
      'a request DynamoDB refuses as malformed',
      Object.assign(new Error('bad number'), { name: 'ValidationException', $fault: 'client' }),
    ],
  ])(
    'dead-letters %s on first sight, with the reason, and carries on with the batch',
    async (_case, error) => {
      // Prepare
      const { run, deadLetter } = setup(async (item) => {
        if (item.steal === 13) throw error;
      });
      // Act
      const outcome = await run([good('a'), good('bad', 13), good('b')]);
      // Assess
      expect(outcome.response).toEqual({ batchItemFailures: [] });
      expect(outcome.counts).toEqual({ stored: 2, rejected: 1, retried: 0 });
      expect(deadLetter.messages()[0].attributes[DEAD_LETTER_ATTRIBUTE.error]).toBe(error.message);
    },
  );

  it('retries an error nobody classified, so the redrive policy bounds it', async () => {
    // Prepare
    const { run, deadLetter } = setup(async () => {
      throw new Error('socket hang up');
    });
    // Act
    const outcome = await run([good('a')]);
    // Assess
    expect(outcome.response).toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }] });
    expect(deadLetter.size).toBe(0);
  });
});
