import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { parseMigrationInput } from '../../lib/model/migration.js';
import { executionNameFor } from '../../lib/workflow/input.js';
import {
  deadlineSeconds,
  leaseTtlMs,
  parseWorkflowSettings,
  workflowSettingsFromEnv,
} from '../../lib/workflow/settings.js';
import { migration } from './memory.js';

function issuesOf(input: unknown): string[] {
  try {
    parseMigrationInput(input);
  } catch (error) {
    return (error as ValidationError).issues.map((i) => i.path);
  }
  return [];
}

describe('the plan message', () => {
  it('accepts a message without Kubernetes node and Consul agent', () => {
    const { kubernetes_node: _k, consul: _c, ...bare } = migration();
    expect(parseMigrationInput(bare)).toMatchObject({ migration_id: 'mig-1' });
  });

  it.each([
    ['a migration id with spaces', { migration_id: 'mig 1' }, 'migration_id'],
    ['an expiry that is no time', { plan_expires_at: 'tomorrow' }, 'plan_expires_at'],
    ['a zero estimate', { estimated_seconds: 0 }, 'estimated_seconds'],
    ['the source as destination', { dest_host: 'cmp-1' }, 'dest_host'],
    ['a Consul agent without address', { consul: { node: 'vm-1' } }, 'consul.address'],
  ])('rejects %s, naming the field', (_what, overrides, field) => {
    expect(issuesOf({ ...migration(), ...overrides })).toEqual([field]);
  });
});

describe('executionNameFor', () => {
  it('uses an id Step Functions accepts as it is', () => {
    expect(executionNameFor('plan-7_mig-3')).toBe('plan-7_mig-3');
  });

  it.each([
    ['characters Step Functions refuses', 'plan:7.mig:3'],
    ['more than 80 characters', 'm'.repeat(120)],
  ])('hashes an id with %s into a valid, stable name', (_what, id) => {
    const name = executionNameFor(id);
    expect(name).toMatch(/^[A-Za-z0-9_-]{1,80}$/);
    expect(executionNameFor(id)).toBe(name);
  });

  it('never gives two ids the same name', () => {
    expect(executionNameFor('a:b')).not.toBe(executionNameFor('a.b'));
  });
});

describe('workflow settings', () => {
  it('sets the deadline to the estimate times the factor, at least the minimum', () => {
    const settings = parseWorkflowSettings({ deadline_factor: 3, min_deadline_seconds: 300 });
    expect([deadlineSeconds(50, settings), deadlineSeconds(200, settings)]).toEqual([300, 600]);
  });

  it('holds leases longer than the longest migration, drains and grace included', () => {
    const settings = parseWorkflowSettings({});
    expect(leaseTtlMs(200, settings)).toBe((600 + 120 + 600 + 900) * 1000);
  });

  it('names the bad blackout window', () => {
    expect(() => parseWorkflowSettings({ blackout_windows: ['09:00-10:00', '25:00-26:00'] })).toThrow(
      /blackout_windows\[1\]/,
    );
  });

  it('rejects an unknown setting', () => {
    expect(() => parseWorkflowSettings({ deadline_factr: 2 })).toThrow(ValidationError);
  });

  it('reads them from the environment as JSON', () => {
    const settings = workflowSettingsFromEnv({
      PLACID_WORKFLOW_SETTINGS: '{"on_deadline":"force-complete"}',
    });
    expect(settings.on_deadline).toBe('force-complete');
  });

  it('says so when the environment variable is not JSON', () => {
    expect(() => workflowSettingsFromEnv({ PLACID_WORKFLOW_SETTINGS: '{' })).toThrow(
      /PLACID_WORKFLOW_SETTINGS is not valid JSON/,
    );
  });
});
