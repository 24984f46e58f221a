import { beforeAll, describe, expect, it } from 'vitest';
import { generateFleet } from '../../bench/generateFleet.js';
import { newestReportAt } from '../../lib/ingest/batchWrites.js';
import { openLocalStore } from '../../lib/local/localStore.js';
import type { Plan } from '../../lib/model/plan.js';
import { runCli, tempFiles } from '../cli/runCli.js';
import { SHAPE } from './harness.js';

// The CLI runs on the wall clock, so the fleet reports now.
const files = tempFiles('placid-detector-cli-');
const dataDir = `${files.dir}/store`;
const config = files.write('approve.json', { rebalance: { mode: 'approve' } });
let planId: string;
let detectRun: { stdout: string };

interface DetectJson {
  sent: Array<{ migration_id: string; instance_uuid: string; source_host: string; dest_host: string }>;
  executed: Array<{ migration_id: string; status: string }>;
  completed: string[];
}
interface FleetJson {
  zones: Array<{ hosts: Array<{ host: string; vms: number }> }>;
}
let fleetBefore: FleetJson;

const vmCounts = (view: FleetJson): Map<string, number> =>
  new Map(view.zones.flatMap((z) => z.hosts.map((h) => [h.host, h.vms] as const)));

beforeAll(async () => {
  const local = await openLocalStore({ dataDir });
  try {
    const fleet = generateFleet({ ...SHAPE, now: new Date() });
    await local.store.putReports(fleet);
    await local.store.noteIngested(newestReportAt(fleet));
    const stale = {
      plan_id: 'plan-stale',
      mode: 'approve',
      status: 'pending_approval',
      created_at: '2026-01-01T10:00:00.000Z',
      expires_at: '2026-01-01T10:30:00.000Z',
      migrations: [],
      skipped: [],
      waves: [],
      summary: { moved: 0, waves: 0 },
    };
    await local.store.plans.put(stale as unknown as Plan);
  } finally {
    await local.close();
  }
});

describe('placid detect, plans and approve on the local store', () => {
  beforeAll(async () => {
    const run = await runCli(['detect', '--data-dir', dataDir, '--config', config, '--json']);
    planId = JSON.parse(run.stdout).plan.plan_id;
  });

  it('lists the plan detect made as pending approval, with its planned migrations', async () => {
    // Act
    const run = await runCli(['plans', '--data-dir', dataDir, '--json']);
    // Assess
    expect(run.status).toBe(0);
    const listed = JSON.parse(run.stdout).find((p: { plan_id: string }) => p.plan_id === planId);
    expect(listed.status).toBe('pending_approval');
    expect(listed.migrations.planned).toBeGreaterThan(0);
  });

  it('approves it, and the next detect sends its first wave', async () => {
    // Prepare
    fleetBefore = JSON.parse((await runCli(['fleet', '--data-dir', dataDir, '--json'])).stdout);
    // Act
    const approve = await runCli(['approve', planId, '--data-dir', dataDir]);
    detectRun = await runCli(['detect', '--data-dir', dataDir, '--config', config, '--json']);
    // Assess
    expect(approve.status).toBe(0);
    expect(approve.stdout).toContain(`approved ${planId}`);
    expect(JSON.parse(detectRun.stdout).sent.length).toBeGreaterThan(0);
  });

  it('executes every wave it sends through the local workflow until the plan completes', async () => {
    // Assess (the detect run above)
    const run = JSON.parse(detectRun.stdout) as DetectJson;
    expect(run.executed.map((e) => e.migration_id).sort()).toEqual(
      run.sent.map((m) => m.migration_id).sort(),
    );
    expect(run.executed.every((e) => e.status === 'succeeded')).toBe(true);
    expect(run.completed).toEqual([planId]);
    const plans = await runCli(['plans', '--data-dir', dataDir, '--json']);
    const listed = JSON.parse(plans.stdout).find((p: { plan_id: string }) => p.plan_id === planId);
    expect(listed.status).toBe('completed');
    expect(listed.migrations).toEqual({ succeeded: run.sent.length });
  });

  it('shows each moved VM on its destination in placid fleet, and runs nothing twice', async () => {
    // Prepare
    const run = JSON.parse(detectRun.stdout) as DetectJson;
    // Act
    const fleet = await runCli(['fleet', '--data-dir', dataDir, '--json']);
    const again = await runCli(['detect', '--data-dir', dataDir, '--config', config, '--json']);
    // Assess
    const expected = vmCounts(fleetBefore);
    for (const moved of run.sent) {
      expected.set(moved.source_host, (expected.get(moved.source_host) ?? 0) - 1);
      expected.set(moved.dest_host, (expected.get(moved.dest_host) ?? 0) + 1);
    }
    expect(vmCounts(JSON.parse(fleet.stdout))).toEqual(expected);
    expect(run.sent.length).toBeGreaterThan(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ sent: [], executed: [] });
  });

  it.each([
    ['an unknown plan id', 'plan-nope', /no plan plan-nope/],
    ['an expired plan', 'plan-stale', /plan plan-stale expired at 2026-01-01T10:30:00.000Z/],
  ])('exits 2 on %s, naming the plan', async (_case, id, message) => {
    // Act
    const run = await runCli(['approve', id, '--data-dir', dataDir]);
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('exits 2 when there is no store at --data-dir', async () => {
    // Act
    const run = await runCli(['plans', '--data-dir', `${files.dir}/nowhere`]);
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('no local fleet store');
  });
});
