import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { type Clock, systemClock } from '../model/clock.js';

export interface LambdaContextOptions {
  functionName: string;
  timeoutMs?: number;
  region?: string;
  accountId?: string;
  clock?: Clock;
}

/** A Lambda `Context` for one local invocation: fresh request id, remaining time from the given clock. */
export function makeLambdaContext(options: LambdaContextOptions): Context {
  const clock = options.clock ?? systemClock;
  const deadline = clock.now() + (options.timeoutMs ?? 30_000);
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '000000000000';
  const requestId = randomUUID();
  const noop = (): void => {};
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: options.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:${accountId}:function:${options.functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${options.functionName}`,
    logStreamName: `local/[$LATEST]${requestId.replaceAll('-', '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - clock.now()),
    done: noop,
    fail: noop,
    succeed: noop,
  };
}
