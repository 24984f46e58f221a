import { describe, expect, it } from 'vitest';
import { DETECT_ENV, readDetectEnv } from '../../../functions/detect/env.js';
import { ConfigError } from '../../../lib/model/errors.js';

const QUEUE = 'https://sqs.us-east-1.amazonaws.com/123456789012/placid-plans';

describe('readDetectEnv', () => {
  it('reads the queue, the [rebalance] settings and the scheduler config', () => {
    // Act
    const env = readDetectEnv({
      [DETECT_ENV.planQueueUrl]: QUEUE,
      [DETECT_ENV.rebalanceSettings]: JSON.stringify({ mode: 'approve', plan_ttl_minutes: 20 }),
      [DETECT_ENV.schedulerConfig]: JSON.stringify({ DEFAULT: { default_availability_zone: 'az9' } }),
      PLACID_TABLE_PLANS: 'prod-plans',
    });
    // Assess
    expect(env.planQueueUrl).toBe(QUEUE);
    expect(env.settings).toMatchObject({
      mode: 'approve',
      plan_ttl_minutes: 20,
      steal_threshold_percent: 10,
    });
    expect(env.config.DEFAULT.default_availability_zone).toBe('az9');
    expect(env.tables.plans).toBe('prod-plans');
  });

  it('uses the defaults when the settings are unset', () => {
    // Act
    const env = readDetectEnv({ [DETECT_ENV.planQueueUrl]: QUEUE });
    // Assess
    expect(env.settings.mode).toBe('recommend');
  });

  it.each([
    [
      'a missing queue URL',
      { [DETECT_ENV.planQueueUrl]: undefined },
      /PLACID_PLAN_QUEUE_URL must be the plan queue URL/,
    ],
    [
      'settings that are not JSON',
      { [DETECT_ENV.rebalanceSettings]: '{mode:' },
      /PLACID_REBALANCE_SETTINGS: not valid JSON/,
    ],
    [
      'an unknown mode',
      { [DETECT_ENV.rebalanceSettings]: '{"mode":"yolo"}' },
      /PLACID_REBALANCE_SETTINGS: \[rebalance\] mode = "yolo"/,
    ],
    [
      'an unknown option',
      { [DETECT_ENV.rebalanceSettings]: '{"steal_treshold_percent":5}' },
      /unknown option steal_treshold_percent/,
    ],
    [
      'a scheduler config that is not JSON',
      { [DETECT_ENV.schedulerConfig]: 'x' },
      /PLACID_SCHEDULER_CONFIG: not valid JSON/,
    ],
  ])('names the setting on %s', (_case, vars, message) => {
    // Prepare
    const env = { [DETECT_ENV.planQueueUrl]: QUEUE, ...vars };
    // Act / Assess
    expect(() => readDetectEnv(env)).toThrow(ConfigError);
    expect(() => readDetectEnv(env)).toThrow(message);
  });
});
