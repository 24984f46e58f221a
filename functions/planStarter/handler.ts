/**
 * The plan starter Lambda: consumes the plan queue and starts one migration execution per message,
 * idempotently and within the concurrency limit (lib/workflow/starter.ts), with partial batch
 * responses so only the messages that must wait come back (after a shortened visibility timeout).
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemClock } from '../../lib/model/clock.js';
import { SqsQueue } from '../../lib/queue/sqs.js';
import { sfnExecutions } from '../../lib/workflow/sfnExecutions.js';
import { startPlannedMigrations } from '../../lib/workflow/starter.js';
import { lazily } from '../shared/coldStart.js';
import { withPowertools } from '../shared/middleware.js';
import { logger, recordBatchCounts } from '../shared/powertools.js';
import { readPlanStarterEnv } from './env.js';

const stage = lazily(() => {
  const env = readPlanStarterEnv();
  const sqs = new SQSClient({});
  return {
    executions: sfnExecutions(new SFNClient({}), env.stateMachineArn),
    maxConcurrent: env.maxConcurrent,
    deadLetter: new SqsQueue(sqs, env.deadLetterQueueUrl),
    planQueue: new SqsQueue(sqs, env.planQueueUrl),
  };
});

export const handler = withPowertools(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const outcome = await startPlannedMigrations(event, {
    ...(await stage()),
    clock: systemClock,
    logger,
  });
  recordBatchCounts(outcome.counts);
  return outcome.response;
});
