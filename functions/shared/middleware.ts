import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type MiddyfiedHandler } from '@middy/core';
import type { Context } from 'aws-lambda';
import { correlationIds } from './correlation.js';
import { logger, metrics } from './powertools.js';

/** A Lambda's own logic, before the shared middleware is wrapped around it. */
export type LambdaLogic<TEvent, TResult> = (event: TEvent, context: Context) => Promise<TResult>;

/**
 * Wraps a Lambda in the middleware every Placid stage shares: Lambda context and the correlation id
 * on each log line (keys reset after each invocation), and metrics flushed even when the handler throws.
 *
 * @example
 * export const handler = withPowertools(async (event: SQSEvent) => (await processSqsBatch(event, opts)).response);
 */
export function withPowertools<TEvent, TResult>(
  logic: LambdaLogic<TEvent, TResult>,
): MiddyfiedHandler<TEvent, TResult> {
  return middy<TEvent, TResult>(logic)
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(correlationIds(logger))
    .use(logMetrics(metrics, { captureColdStartMetric: true }));
}
