/** The plan starter's settings, from its environment (set by lib/infra/workflow.ts). */
import * as z from 'zod';
import { parseEnv } from '../shared/env.js';

export const PLAN_STARTER_ENV = {
  stateMachineArn: 'PLACID_STATE_MACHINE_ARN',
  planQueueUrl: 'PLACID_PLAN_QUEUE_URL',
  deadLetterQueueUrl: 'PLACID_DEAD_LETTER_QUEUE_URL',
  maxConcurrent: 'PLACID_MAX_CONCURRENT_MIGRATIONS',
} as const;

const schema = z.object({
  [PLAN_STARTER_ENV.stateMachineArn]: z
    .string({ error: 'is required' })
    .regex(
      /^arn:aws[a-z-]*:states:[a-z0-9-]+:\d{12}:stateMachine:[A-Za-z0-9_-]+$/,
      'must be a state machine ARN',
    ),
  [PLAN_STARTER_ENV.planQueueUrl]: z.url({ error: 'must be the plan queue URL' }),
  [PLAN_STARTER_ENV.deadLetterQueueUrl]: z.url({ error: 'must be the dead-letter queue URL' }),
  [PLAN_STARTER_ENV.maxConcurrent]: z
    .string({ error: 'is required' })
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000)),
});

export interface PlanStarterEnv {
  stateMachineArn: string;
  /** The queue it consumes: a message that must wait gets a shorter visibility timeout there. */
  planQueueUrl: string;
  deadLetterQueueUrl: string;
  maxConcurrent: number;
}

/** @throws ConfigError naming every bad variable. */
export function readPlanStarterEnv(env: NodeJS.ProcessEnv = process.env): PlanStarterEnv {
  const v = parseEnv(schema, env, 'plan starter environment');
  return {
    stateMachineArn: v[PLAN_STARTER_ENV.stateMachineArn],
    planQueueUrl: v[PLAN_STARTER_ENV.planQueueUrl],
    deadLetterQueueUrl: v[PLAN_STARTER_ENV.deadLetterQueueUrl],
    maxConcurrent: v[PLAN_STARTER_ENV.maxConcurrent],
  };
}
