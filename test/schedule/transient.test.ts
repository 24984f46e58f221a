import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { QueueSendError } from '../../lib/queue/errors.js';
import { isTransient } from '../../lib/schedule/transient.js';
import { BatchWriteError } from '../../lib/store/errors.js';

const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name }, extra);

describe('isTransient', () => {
  it.each([
    ['DynamoDB throttling', named('ProvisionedThroughputExceededException'), true],
    ['a server-side fault', named('InternalServerError', { $fault: 'server' }), true],
    ['an SDK error marked retryable', named('Whatever', { $retryable: {} }), true],
    ['a refused connection', named('Error', { code: 'ECONNREFUSED' }), true],
    ['a store error that says retry', new BatchWriteError('unprocessed', 3), true],
    ['a queue send SQS failed on its side', new QueueSendError('InternalError', 'x', false), true],
    ['a queue send refused as too big', new QueueSendError('MessageTooLong', 'x', true), false],
    ['a client-side SDK fault', named('ValidationException', { $fault: 'client' }), false],
    ['bad input', new ValidationError('request', []), false],
    ['a plain bug', new TypeError('x is undefined'), false],
    ['something that is not an Error', 'boom', false],
  ])('says %s is %s', (_case, error, expected) => {
    expect(isTransient(error)).toBe(expected);
  });
});
