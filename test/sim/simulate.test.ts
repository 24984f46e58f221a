/**
 * The simulation end to end, through the real pipeline on its local stand-ins: reports through the
 * ingest stage into dynalite, the detector, the plan queue and starter, the synthesized state
 * machine on the simulated drivers. A small fleet for an hour, with two noisy neighbours.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../lib/sim/scenario.js';
import { runSimulation, type SimulationOutput } from '../../lib/sim/simulate.js';

const SMALL = {
  name: 'e2e',
  seed: 1,
  start: '2026-12-01T08:00:00+09:00',
  duration_minutes: 60,
  zones: 2,
  hosts: { count: 8, vcpus: 20 },
  vms: 80,
  load_curve: [{ at: '00:00', level: 1 }],
  noisy_neighbours: [
    { host: 'cmp-az1-001', start: '08:02', duration_minutes: 120 },
    { host: 'cmp-az2-002', start: '08:02', duration_minutes: 120 },
  ],
};

describe('a simulation with noisy neighbours', () => {
  let first: SimulationOutput;
  let again: SimulationOutput;

  beforeAll(async () => {
    first = await runSimulation(parseScenario(SMALL, 'e2e'));
    // The plain way: the store in this thread, one ingest batch at a time.
    again = await runSimulation(parseScenario(SMALL, 'e2e'), {
      stack: { storeThread: false, ingestConcurrency: 1 },
    });
  }, 240_000);

  it('has fewer VM-minutes in steal with Placid than without', () => {
    const { placid, baseline } = first.result.runs;
    expect(baseline.vm_minutes_in_steal).toBeGreaterThan(0);
    expect(placid.vm_minutes_in_steal).toBeLessThan(baseline.vm_minutes_in_steal);
  });

  it('breaks no hard constraint in either run', () => {
    expect([first.result.runs.placid.violations, first.result.runs.baseline.violations]).toEqual([[], []]);
  });

  it('leaves each VM it migrated on the destination Nova moved it to', () => {
    const moved = first.result.migrations.filter((m) => m.status === 'succeeded');
    expect(moved.length).toBeGreaterThan(0);
    const last = new Map(moved.map((m) => [m.instance_uuid, m.dest_host]));
    for (const [uuid, dest] of last) expect(first.placid.finalHosts.get(uuid)).toBe(dest);
  });

  it('counts the migrations it reports', () => {
    const { migrations } = first.result.runs.placid;
    expect(migrations.started).toBe(first.result.migrations.length);
    expect(migrations.succeeded).toBe(first.result.migrations.filter((m) => m.status === 'succeeded').length);
  });

  it('logs every planned move as a decision with its reason', () => {
    const moves = first.result.decisions.entries.filter((e) => e.decision === 'moved');
    expect(moves.length).toBeGreaterThanOrEqual(first.result.runs.placid.migrations.started);
    expect(moves.every((e) => e.reason.length > 0)).toBe(true);
  });

  it('gives the same result for the same seed (but for the time it took), however the stand-ins run', () => {
    expect({ ...again.result, elapsed_ms: 0 }).toEqual({ ...first.result, elapsed_ms: 0 });
  });

  it('leaves no node cordoned, no maintenance on and no lease held', () => {
    expect(first.placid.leftovers).toEqual({ leases: [], cordoned: [], maintenance: [] });
  });
});

describe('a simulation whose live migrations all fail part-way', () => {
  let output: SimulationOutput;

  beforeAll(async () => {
    const scenario = parseScenario(
      {
        ...SMALL,
        duration_minutes: 40,
        failures: { migration: 1, nova_unavailable: 0.1, consul_unreachable: 0.1 },
      },
      'failing',
    );
    output = await runSimulation(scenario);
  }, 240_000);

  it('rolls every started migration back and moves no VM', () => {
    const { migrations } = output.result.runs.placid;
    expect(migrations.rolled_back).toBeGreaterThan(0);
    expect(migrations.succeeded).toBe(0);
    const moved = output.result.migrations.filter(
      (m) => output.placid.finalHosts.get(m.instance_uuid) !== m.source_host,
    );
    expect(moved).toEqual([]);
  });

  it('says why each rolled-back migration failed', () => {
    const rolledBack = output.result.migrations.filter((m) => m.status === 'rolled_back');
    expect(rolledBack.length).toBeGreaterThan(0);
    expect(rolledBack.every((m) => /LiveMigrationFailedError/.test(m.error ?? ''))).toBe(true);
  });

  it('leaves no node cordoned, no maintenance on and no lease held', () => {
    expect(output.placid.leftovers).toEqual({ leases: [], cordoned: [], maintenance: [] });
  });
});
