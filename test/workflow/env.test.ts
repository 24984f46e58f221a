import { describe, expect, it } from 'vitest';
import { readPlanStarterEnv } from '../../functions/planStarter/env.js';
import { readWorkflowEnv } from '../../functions/workflow/env.js';

describe('the workflow steps Lambda environment', () => {
  const env = {
    PLACID_TABLE_LEASES: 'prod-leases',
    PLACID_WORKFLOW_SETTINGS: '{"deadline_factor":5}',
  };

  it('reads table names and settings, and no driver secrets (the agents hold those)', () => {
    const read = readWorkflowEnv(env);
    expect([read.tables.leases, read.settings.deadline_factor, 'secrets' in read]).toEqual([
      'prod-leases',
      5,
      false,
    ]);
  });

  it('names a bad DynamoDB endpoint', () => {
    expect(() => readWorkflowEnv({ ...env, PLACID_DYNAMODB_ENDPOINT: 'not a url' })).toThrow(
      /PLACID_DYNAMODB_ENDPOINT/,
    );
  });
});

describe('the plan starter Lambda environment', () => {
  it('reads the state machine, dead-letter queue and concurrency limit', () => {
    const read = readPlanStarterEnv({
      PLACID_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:123456789012:stateMachine:Workflow-1',
      PLACID_PLAN_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/plans',
      PLACID_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/plans-dlq',
      PLACID_MAX_CONCURRENT_MIGRATIONS: '10',
    });
    expect(read.maxConcurrent).toBe(10);
    expect(read.planQueueUrl).toBe('https://sqs.us-east-1.amazonaws.com/123456789012/plans');
  });

  it('rejects a concurrency limit that is no whole number', () => {
    expect(() =>
      readPlanStarterEnv({
        PLACID_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:123456789012:stateMachine:W',
        PLACID_PLAN_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/plans',
        PLACID_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/plans-dlq',
        PLACID_MAX_CONCURRENT_MIGRATIONS: 'ten',
      }),
    ).toThrow(/PLACID_MAX_CONCURRENT_MIGRATIONS must be a whole number/);
  });

  it('requires the plan queue URL, to shorten a waiting message’s visibility', () => {
    expect(() =>
      readPlanStarterEnv({
        PLACID_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:123456789012:stateMachine:W',
        PLACID_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/plans-dlq',
        PLACID_MAX_CONCURRENT_MIGRATIONS: '10',
      }),
    ).toThrow(/PLACID_PLAN_QUEUE_URL/);
  });
});
