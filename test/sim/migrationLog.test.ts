import { describe, expect, it } from 'vitest';
import type { Plan } from '../../lib/model/plan.js';
import { MigrationLog } from '../../lib/sim/migrationLog.js';

/** A plan that moved nothing: every considered VM skipped with `code`. */
function considered(at: string, code: 'cooldown' | 'no_destination', uuids: string[]): Plan {
  return {
    plan_id: `plan-${at}`,
    mode: 'auto',
    status: 'approved',
    created_at: at,
    expires_at: at,
    migrations: [],
    skipped: uuids.map((instance_uuid) => ({
      instance_uuid,
      host: 'cmp-1',
      code,
      reason: `${code} for ${instance_uuid}`,
    })),
    waves: [],
    summary: {
      suffering_vms: uuids.length,
      contended_hosts: 1,
      moved: 0,
      bytes: 0,
      lower_bound_bytes: 0,
      lower_bound_covers: { hosts: [], suffering_vms: 0, plan_bytes: 0 },
      waves: 0,
      suffering_left_predicted: uuids.length,
      newly_suffering_predicted: 0,
    },
  };
}

describe('MigrationLog.onSkips', () => {
  it('logs why each considered VM stayed, without counting a plan', () => {
    // Prepare
    const log = new MigrationLog();
    // Act
    log.onSkips(considered('2026-12-01T08:00:00.000Z', 'no_destination', ['vm-1', 'vm-2']));
    // Assess
    expect(log.plans).toBe(0);
    expect(log.entries.map((e) => [e.instance_uuid, e.decision, e.reason])).toEqual([
      ['vm-1', 'no_destination', 'no_destination for vm-1'],
      ['vm-2', 'no_destination', 'no_destination for vm-2'],
    ]);
  });

  it('logs a VM given the same reason minute after minute once, and again when the reason changes', () => {
    // Prepare
    const log = new MigrationLog();
    // Act
    log.onSkips(considered('2026-12-01T08:00:00.000Z', 'no_destination', ['vm-1']));
    log.onSkips(considered('2026-12-01T08:05:00.000Z', 'no_destination', ['vm-1']));
    log.onSkips(considered('2026-12-01T08:10:00.000Z', 'cooldown', ['vm-1']));
    // Assess
    expect(log.entries.map((e) => [e.at, e.decision])).toEqual([
      ['2026-12-01T08:00:00.000Z', 'no_destination'],
      ['2026-12-01T08:10:00.000Z', 'cooldown'],
    ]);
  });
});
