import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { QueueSendError } from '../../lib/queue/errors.js';
import { classifyFailure } from '../../lib/queue/failure.js';
import { RequestIdConflictError } from '../../lib/schedule/errors.js';
import { BatchWriteError, StoreError } from '../../lib/store/errors.js';

const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name }, extra);

describe('classifyFailure', () => {
  it.each([
    ['DynamoDB throttling', named('ProvisionedThroughputExceededException'), 'transient'],
    ['a server-side fault', named('InternalServerError', { $fault: 'server' }), 'transient'],
    ['a refused connection', named('Error', { code: 'ECONNREFUSED' }), 'transient'],
    ['a store error that says retry', new BatchWriteError('unprocessed', 3), 'transient'],
    ['a store error that says do not', new StoreError('gone'), 'permanent'],
    ['a queue send SQS failed on its side', new QueueSendError('InternalError', 'x', false), 'transient'],
    [
      'a queue send refused as malformed',
      new QueueSendError('InvalidParameterValue', 'x', true),
      'permanent',
    ],
    ['bad input', new ValidationError('request', []), 'permanent'],
    ['a reused request id', new RequestIdConflictError('r-1'), 'permanent'],
    // Issue 12 item 1: these were retried until SQS dead-lettered them without a reason.
    ['a number DynamoDB refuses', named('ValidationException', { $fault: 'client' }), 'permanent'],
    [
      "lib-dynamodb's refusal of an unsafe integer",
      new Error('Number 6000000000000000 is greater than Number.MAX_SAFE_INTEGER. Use BigInt.'),
      'permanent',
    ],
    // Issue 12 item 2: encodeURIComponent on a lone surrogate.
    ['URIError', new URIError('URI malformed'), 'permanent'],
    ['a plain Error nobody named', new Error('socket hang up?'), 'unknown'],
    ['something that is not an Error', 'boom', 'unknown'],
  ])('classifies %s as %s', (_case, error, kind) => {
    expect(classifyFailure(error)).toBe(kind);
  });
});
