import { describe, expect, it } from 'vitest';
import { SimulatedFleet } from '../../lib/drivers/simulated/fleet.js';
import { simulatedDrivers } from '../../lib/drivers/simulated/index.js';
import { ManualClock } from '../../lib/model/clock.js';
import { migrationCost } from '../../lib/rebalance/cost.js';
import { defaultRebalanceSettings } from '../../lib/rebalance/settings.js';

const VM = { uuid: 'vm-1', host: 'cmp-1', flavor: { memory_mb: 8192, root_gb: 40 }, shared_storage: false };

function fleetWith(options: Partial<ConstructorParameters<typeof SimulatedFleet>[0]> = {}) {
  const clock = new ManualClock(Date.UTC(2026, 11, 1, 12));
  const fleet = new SimulatedFleet({ clock, ...options });
  fleet.addServer(VM);
  return { clock, fleet, ...simulatedDrivers(fleet) };
}

describe('simulated Nova', () => {
  it('takes as long as the cost model says at the configured bandwidth', async () => {
    const { clock, fleet, nova } = fleetWith({ cost: { migration_bandwidth_mbps: 1000 } });
    const expected = migrationCost(VM, {
      ...defaultRebalanceSettings(),
      migration_bandwidth_mbps: 1000,
    }).seconds;
    const api = await nova();
    await api.liveMigrate('vm-1', { host: 'cmp-2' });
    clock.advance(expected * 1000 - 1_000);
    const before = await api.getServer('vm-1');
    clock.advance(1_000);
    const after = await api.getServer('vm-1');
    expect([before.host, before.taskState, after.host, after.status]).toEqual([
      'cmp-1',
      'migrating',
      'cmp-2',
      'ACTIVE',
    ]);
    expect(fleet.migrations.get('vm-1')?.[0].status).toBe('completed');
  });

  it('answers 409 to a second live migration while one runs', async () => {
    const { nova } = fleetWith();
    const api = await nova();
    await api.liveMigrate('vm-1', { host: 'cmp-2' });
    await expect(api.liveMigrate('vm-1', { host: 'cmp-3' })).rejects.toMatchObject({
      name: 'NovaConflictError',
      status: 409,
    });
  });

  it('fails the same migrations for the same seed', async () => {
    const outcomes = async (seed: number) => {
      const results: string[] = [];
      for (let i = 0; i < 8; i++) {
        const { clock, nova } = fleetWith({ seed: seed + i, failures: { migration: 0.5 } });
        const api = await nova();
        await api.liveMigrate('vm-1', { host: 'cmp-2' });
        clock.advance(3_600_000);
        results.push((await api.listMigrations({ instanceUuid: 'vm-1' }))[0].status);
      }
      return results;
    };
    const first = await outcomes(7);
    expect(await outcomes(7)).toEqual(first);
    expect(new Set(first)).toEqual(new Set(['completed', 'error']));
  });

  it('aborts a running migration, leaving the VM on the source', async () => {
    const { nova } = fleetWith();
    const api = await nova();
    await api.liveMigrate('vm-1', { host: 'cmp-2' });
    const [running] = await api.listServerMigrations('vm-1');
    await api.abortMigration('vm-1', running.id);
    expect([
      (await api.listMigrations({ instanceUuid: 'vm-1' }))[0].status,
      (await api.getServer('vm-1')).host,
    ]).toEqual(['cancelled', 'cmp-1']);
  });
});

describe('simulated Kubernetes and Consul', () => {
  it('drains the pods but the DaemonSet ones, taking time per eviction', async () => {
    const { clock, fleet, drainer } = fleetWith({ evictionSeconds: 5 });
    fleet.addNode('node-1', [{ name: 'a' }, { name: 'b' }, { name: 'ds', daemonSet: true }]);
    const started = clock.now();
    const result = await (await drainer()).drain('node-1');
    expect([result.evicted.length, result.skipped.length, clock.now() - started]).toEqual([2, 1, 10_000]);
    expect(fleet.nodes.get('node-1')?.cordoned).toBe(true);
  });

  it('fails the drain at its deadline when a PodDisruptionBudget blocks', async () => {
    const { fleet, drainer } = fleetWith({ failures: { evictionBlocked: 1 } });
    fleet.addNode('node-1', [{ name: 'db-0' }]);
    await expect((await drainer()).drain('node-1', { timeoutMs: 60_000 })).rejects.toMatchObject({
      name: 'EvictionBlockedError',
    });
  });

  it('keeps the first maintenance reason, as Consul does', async () => {
    const { fleet, maintenance } = fleetWith();
    fleet.addConsulAgent('vm-1');
    const agent = { node: 'vm-1', address: '10.0.0.1' };
    const consul = await maintenance();
    await consul.enable(agent, 'first');
    expect(await consul.enable(agent, 'second')).toEqual({ outcome: 'already-enabled', reason: 'first' });
  });
});
