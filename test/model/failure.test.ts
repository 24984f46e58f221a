import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { classifyFailure, isRetryable, isThrottling, retryAfterOf } from '../../lib/model/failure.js';
import { QueueSendError } from '../../lib/queue/errors.js';
import { RequestIdConflictError } from '../../lib/schedule/errors.js';
import { BatchWriteError, StoreError } from '../../lib/store/errors.js';

const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name }, extra);

describe('classifyFailure', () => {
  it.each([
    ['DynamoDB throttling', named('ProvisionedThroughputExceededException'), 'transient'],
    ['DynamoDB request-rate throttling', named('RequestLimitExceeded'), 'transient'],
    ['a server-side fault', named('InternalServerError', { $fault: 'server' }), 'transient'],
    ['a DynamoDB server error without $fault', named('ServiceUnavailable'), 'transient'],
    ['an SDK error marked retryable', named('Whatever', { $retryable: {} }), 'transient'],
    ['a refused connection', named('Error', { code: 'ECONNREFUSED' }), 'transient'],
    ['a store error that says retry', new BatchWriteError('unprocessed', 3), 'transient'],
    ['a store error that says do not', new StoreError('gone'), 'permanent'],
    [
      'a queue send SQS failed on its side',
      new QueueSendError('InternalError', 'x', { retryable: true }),
      'transient',
    ],
    [
      'a queue send refused as malformed',
      new QueueSendError('InvalidParameterValue', 'x', { retryable: false }),
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
    ['a plain bug', new TypeError('x is undefined'), 'permanent'],
    ['a plain Error nobody named', new Error('socket hang up?'), 'unknown'],
    ['something that is not an Error', 'boom', 'unknown'],
  ])('classifies %s as %s', (_case, error, kind) => {
    expect(classifyFailure(error)).toBe(kind);
  });

  it('retries only what it classifies transient (an unknown failure is not retried in-process)', () => {
    expect([
      isRetryable(named('ThrottlingException')),
      isRetryable(new Error('socket hang up?')),
      isRetryable(new ValidationError('request', [])),
    ]).toEqual([true, false, false]);
  });
});

describe('isThrottling', () => {
  it('tells throttling from other transient faults', () => {
    expect([
      isThrottling(named('ProvisionedThroughputExceededException')),
      isThrottling(named('Whatever', { $retryable: { throttling: true } })),
      isThrottling(named('InternalServerError', { $fault: 'server' })),
      isThrottling('ThrottlingException'),
    ]).toEqual([true, true, false, false]);
  });
});

describe('retryAfterOf', () => {
  it("reads a typed error's Retry-After and ignores anything unusable", () => {
    expect([
      retryAfterOf(Object.assign(new Error('busy'), { retryAfterMs: 1500 })),
      retryAfterOf(Object.assign(new Error('busy'), { retryAfterMs: -1 })),
      retryAfterOf(new Error('busy')),
      retryAfterOf(null),
    ]).toEqual([1500, undefined, undefined, undefined]);
  });
});
