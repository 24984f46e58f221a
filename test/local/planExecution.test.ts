/**
 * The local plan executor builds what a wave's migrations share once per wave: the `--settings`
 * and `--endpoints` files are read once however many migrations (or secrets) the wave has.
 * Reads are counted through the injected reader, over real files.
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { openLocalWave } from '../../lib/local/localMigration.js';
import { executePlanMessages } from '../../lib/local/planExecution.js';
import { ManualClock } from '../../lib/model/clock.js';
import type { MigrationInput } from '../../lib/model/migration.js';
import { defaultRebalanceSettings } from '../../lib/rebalance/settings.js';
import { adHocMigration } from '../../lib/workflow/adHoc.js';
import { tempFiles } from '../cli/runCli.js';
import { hypervisorDoc, instanceDoc, message, NOW, useStore } from '../store/fixtures.js';

const h = useStore();
const files = tempFiles('placid-wave-');

/** Full listings of the hosts table (the placement re-check's snapshot loading), counted in the client. */
let hostScans = 0;
beforeAll(() => {
  h.local.client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TableName?: string };
      if (context.commandName === 'ScanCommand' && input.TableName === h.local.tableNames.hosts) hostScans++;
      return next(args);
    },
    { step: 'initialize', name: 'hostScanCounter' },
  );
});

/** A reader over the real file system that counts the reads of each path. */
function countingReader() {
  const reads = new Map<string, number>();
  const readText = (path: string) => {
    reads.set(path, (reads.get(path) ?? 0) + 1);
    return readFile(path, 'utf8');
  };
  return { readText, reads };
}

/** VMs vm-1..vm-n, vm-i on src-i, each with a plan message to dst-i. */
async function wave(name: string, n: number): Promise<MigrationInput[]> {
  const hosts = [];
  const vms = [];
  for (let i = 1; i <= n; i++) {
    hosts.push(hypervisorDoc({ host: `${name}-src-${i}`, nodename: `${name}-src-${i}` }));
    hosts.push(hypervisorDoc({ host: `${name}-dst-${i}`, nodename: `${name}-dst-${i}` }));
    vms.push(
      instanceDoc({
        uuid: `b000000${name.length}-0000-4000-8000-00000000000${i}`,
        name: `${name}-vm-${i}`,
        host: `${name}-src-${i}`,
        nodename: `${name}-src-${i}`,
        server_group: { name: `${name}-group-${i}`, policy: 'anti-affinity' },
      }),
    );
  }
  await h.store.putReports(message(hosts, vms));
  const migrations = [];
  for (let i = 1; i <= n; i++) {
    const { migration } = await adHocMigration(h.store, {
      instanceUuid: vms[i - 1].uuid as string,
      dest: `${name}-dst-${i}`,
      now: NOW,
      cost: defaultRebalanceSettings(),
    });
    migrations.push(migration);
  }
  return migrations;
}

describe('executePlanMessages', () => {
  it('reads the settings file and loads the fleet snapshot once per wave, not once per migration', async () => {
    const settings = files.write('settings.json', { record_retention_days: 9 });
    const { readText, reads } = countingReader();
    hostScans = 0;

    const first = await executePlanMessages(h.local, await wave('a', 2), { settings, readText, at: NOW });
    expect(first.map((m) => [m.status, m.final_host])).toEqual([
      ['succeeded', 'a-dst-1'],
      ['succeeded', 'a-dst-2'],
    ]);
    // The workflow moved each VM in the store, so the wave after sees them on their destinations.
    for (const m of first) expect((await h.store.getInstance(m.instance_uuid))?.host).toBe(m.dest_host);
    expect(reads.get(settings)).toBe(1);
    // One fleet snapshot for the wave's re-checks: loaded by one full listing, then read by changes.
    expect(hostScans).toBe(1);

    const second = await executePlanMessages(h.local, await wave('bb', 1), { settings, readText, at: NOW });
    expect(second.map((m) => m.status)).toEqual(['succeeded']);
    expect(reads.get(settings)).toBe(2);
  });
});

describe('openLocalWave', () => {
  it('reads the endpoints file once for all the drivers the wave connects', async () => {
    // Only an empty openstack secret: each connection fails at its secret, before any network.
    const endpoints = files.write('endpoints.json', { openstack: {} });
    const { readText, reads } = countingReader();
    const built = await openLocalWave(h.store, new ManualClock(NOW), { endpoints, readText });
    const drivers = built.drivers;
    if (!drivers) throw new Error('an endpoints file must give the wave real drivers');

    await expect(drivers.nova()).rejects.toThrow(/secret openstack/);
    await expect(drivers.nova()).rejects.toThrow(/secret openstack/);
    await expect(drivers.maintenance()).rejects.toThrow(/secret consul: not in secrets file/);
    await expect(drivers.drainer('east')).rejects.toThrow(/secret kubernetes: not in secrets file/);
    expect(reads.get(endpoints)).toBe(1);
  });

  it('refuses an endpoints file without OpenStack credentials when the wave opens', async () => {
    const endpoints = files.write('no-openstack.json', { unrelated: {} });
    await expect(openLocalWave(h.store, new ManualClock(NOW), { endpoints })).rejects.toThrow(
      /secret openstack: not in secrets file/,
    );
  });

  it('names the settings file it cannot read', async () => {
    const settings = `${files.dir}/missing.json`;
    await expect(openLocalWave(h.store, new ManualClock(NOW), { settings })).rejects.toThrow(
      `cannot read workflow settings ${settings}`,
    );
  });
});
