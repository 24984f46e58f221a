import type { SQSEvent } from 'aws-lambda';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { correlationIdOf } from '../../../functions/shared/correlation.js';
import { withPowertools } from '../../../functions/shared/middleware.js';
import { logger, metrics } from '../../../functions/shared/powertools.js';
import { makeLambdaContext } from '../../../lib/local/lambdaContext.js';
import type { BatchLogger } from '../../../lib/queue/processBatch.js';
import { sqsEvent, sqsRecord } from '../../queue/sqsRecords.js';

describe('correlationIdOf', () => {
  it.each([
    [
      'the first SQS record that carries one',
      sqsEvent(sqsRecord('a'), sqsRecord('b', { correlationId: 'c-2' })),
      'c-2',
    ],
    ['nothing for SQS records without one', sqsEvent(sqsRecord('a')), undefined],
    ['the x-correlation-id header of an HTTP event', { headers: { 'x-correlation-id': 'h-1' } }, 'h-1'],
    ['nothing for an event of another shape', 'not an event', undefined],
    ['nothing for null', null, undefined],
  ])('takes %s', (_name, event, expected) => {
    expect(correlationIdOf(event)).toBe(expected);
  });
});

describe('withPowertools', () => {
  const context = () => makeLambdaContext({ functionName: 'placid-test' });

  it('passes the event through and returns the result', async () => {
    const handler = withPowertools(async (event: SQSEvent) => ({
      batchItemFailures: [],
      n: event.Records.length,
    }));
    metrics.addMetric('Test', 'Count', 1);
    await expect(handler(sqsEvent(sqsRecord('a')), context())).resolves.toEqual({
      batchItemFailures: [],
      n: 1,
    });
  });

  it('logs with the correlation id during the invocation and clears it afterwards', async () => {
    let during: unknown;
    const handler = withPowertools(async (_event: SQSEvent) => {
      during = logger.getCorrelationId();
      metrics.addMetric('Test', 'Count', 1);
    });
    await handler(sqsEvent(sqsRecord('a', { correlationId: 'corr-7' })), context());
    expect(during).toBe('corr-7');
    expect(logger.getCorrelationId()).toBeUndefined();
  });

  it('clears the correlation id even when the handler throws', async () => {
    const handler = withPowertools(async (_event: SQSEvent) => {
      metrics.addMetric('Test', 'Count', 1);
      throw new Error('boom');
    });
    await expect(handler(sqsEvent(sqsRecord('a', { correlationId: 'corr-8' })), context())).rejects.toThrow(
      'boom',
    );
    expect(logger.getCorrelationId()).toBeUndefined();
  });

  it('writes log lines with the function name and correlation id', async () => {
    // Prepare: in POWERTOOLS_DEV mode the logger writes through the global console
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'info').mockImplementation((line: string) => void lines.push(line));
    const handler = withPowertools(async (_event: SQSEvent) => {
      logger.info('storing');
      metrics.addMetric('Test', 'Count', 1);
    });
    // Act
    await handler(sqsEvent(sqsRecord('a', { correlationId: 'corr-9' })), context());
    spy.mockRestore();
    // Assess
    expect(JSON.parse(lines[0])).toMatchObject({
      message: 'storing',
      function_name: 'placid-test',
      correlation_id: 'corr-9',
    });
  });

  it('shares a logger that processSqsBatch accepts', () => {
    expectTypeOf(logger).toExtend<BatchLogger>();
  });
});
