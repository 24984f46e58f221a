import { describe, expect, it } from 'vitest';
import { readPlanStarterEnv } from '../../functions/planStarter/env.js';
import { readWorkflowEnv } from '../../functions/workflow/env.js';

describe('the workflow steps Lambda environment', () => {
  const env = {
    PLACID_SECRET_NOVA: 'placid/nova',
    PLACID_SECRET_KUBERNETES: 'placid/kubernetes',
    PLACID_SECRET_CONSUL: 'placid/consul',
    PLACID_TABLE_LEASES: 'prod-leases',
    PLACID_WORKFLOW_SETTINGS: '{"deadline_factor":5}',
  };

  it('reads secret names, table names and settings', () => {
    const read = readWorkflowEnv(env);
    expect([read.secrets.kubernetes, read.tables.leases, read.settings.deadline_factor]).toEqual([
      'placid/kubernetes',
      'prod-leases',
      5,
    ]);
  });

  it('names every missing secret variable', () => {
    expect(() => readWorkflowEnv({})).toThrow(
      /PLACID_SECRET_NOVA .*PLACID_SECRET_KUBERNETES .*PLACID_SECRET_CONSUL/,
    );
  });
});

describe('the plan starter Lambda environment', () => {
  it('reads the state machine, dead-letter queue and concurrency limit', () => {
    const read = readPlanStarterEnv({
      PLACID_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:123456789012:stateMachine:Workflow-1',
      PLACID_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/plans-dlq',
      PLACID_MAX_CONCURRENT_MIGRATIONS: '10',
    });
    expect(read.maxConcurrent).toBe(10);
  });

  it('rejects a concurrency limit that is no whole number', () => {
    expect(() =>
      readPlanStarterEnv({
        PLACID_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:123456789012:stateMachine:W',
        PLACID_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/plans-dlq',
        PLACID_MAX_CONCURRENT_MIGRATIONS: 'ten',
      }),
    ).toThrow(/PLACID_MAX_CONCURRENT_MIGRATIONS must be a whole number/);
  });
});
