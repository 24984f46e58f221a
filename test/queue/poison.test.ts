import { describe, expect, it } from 'vitest';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { ValidationError } from '../../lib/model/errors.js';
import { checkMessage, messageBytes } from '../../lib/queue/limits.js';
import { DEAD_LETTER_ATTRIBUTE, deadLetterMessage, sendToDeadLetter } from '../../lib/queue/poison.js';
import { sqsRecord } from './sqsRecords.js';

const invalid = new ValidationError('report', [
  { path: 'samples[0].steal_percent', message: 'must be ≤ 100, got 140' },
]);

describe('deadLetterMessage', () => {
  it('keeps the body and attaches the reason, error name, source message and queue', () => {
    // Prepare
    const record = sqsRecord('{"schema_version":1}', { messageId: 'src-1' });
    // Act
    const message = deadLetterMessage(record, invalid);
    // Assess
    expect(message.body).toBe(record.body);
    expect(message.attributes).toEqual({
      [DEAD_LETTER_ATTRIBUTE.error]: 'report: samples[0].steal_percent: must be ≤ 100, got 140',
      [DEAD_LETTER_ATTRIBUTE.errorName]: 'ValidationError',
      [DEAD_LETTER_ATTRIBUTE.sourceMessageId]: 'src-1',
      [DEAD_LETTER_ATTRIBUTE.sourceQueue]: record.eventSourceARN,
    });
  });

  it('carries the correlation id along', () => {
    const message = deadLetterMessage(sqsRecord('x', { correlationId: 'corr-9' }), invalid);
    expect(message.attributes?.correlation_id).toBe('corr-9');
  });

  it('truncates a long reason to 2 KiB', () => {
    const long = new ValidationError('report', [{ path: 'x', message: 'y'.repeat(10_000) }]);
    const reason = deadLetterMessage(sqsRecord('x'), long).attributes?.[DEAD_LETTER_ATTRIBUTE.error] ?? '';
    expect(Buffer.byteLength(reason)).toBe(2048);
  });

  it('replaces characters SQS would refuse in the reason', () => {
    const hostile = new ValidationError('report', [{ path: 'name', message: 'bad value "\u0000\u0007"' }]);
    const message = deadLetterMessage(sqsRecord('x'), hostile);
    expect(checkMessage(message)).toBeUndefined();
    expect(message.attributes?.[DEAD_LETTER_ATTRIBUTE.error]).toContain('"\uFFFD\uFFFD"');
  });

  it('shortens the reason to fit beside a body close to the size limit', () => {
    const body = 'x'.repeat(262_144 - 600);
    const message = deadLetterMessage(
      sqsRecord(body),
      new ValidationError('r', [{ path: 'p', message: 'z'.repeat(5000) }]),
    );
    expect(message.body).toBe(body);
    expect(messageBytes(message)).toBeLessThanOrEqual(262_144);
    expect(Buffer.byteLength(message.attributes?.[DEAD_LETTER_ATTRIBUTE.error] ?? '')).toBeLessThan(600);
    expect(message.attributes?.[DEAD_LETTER_ATTRIBUTE.bodyTruncated]).toBeUndefined();
  });

  it('cuts a body that leaves no room for a reason, and says by how much', () => {
    const body = 'x'.repeat(262_144);
    const message = deadLetterMessage(sqsRecord(body), invalid);
    expect(messageBytes(message)).toBeLessThanOrEqual(262_144);
    expect(message.body.length).toBeLessThan(body.length);
    expect(message.attributes?.[DEAD_LETTER_ATTRIBUTE.bodyTruncated]).toBe('262144');
    expect(message.attributes?.[DEAD_LETTER_ATTRIBUTE.error]).toContain('steal_percent');
  });
});

describe('sendToDeadLetter', () => {
  it('enqueues the dead-letter copy on the given queue', async () => {
    const dlq = new LocalSqsQueue({ name: 'placid-dlq' });
    await sendToDeadLetter(dlq, sqsRecord('not json', { messageId: 'src-2' }), invalid);
    expect(dlq.messages()).toEqual([
      expect.objectContaining({
        body: 'not json',
        attributes: expect.objectContaining({ [DEAD_LETTER_ATTRIBUTE.sourceMessageId]: 'src-2' }),
      }),
    ]);
  });
});
