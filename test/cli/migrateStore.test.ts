/**
 * `placid migrate` leaves the local store where the VM is: `placid fleet` shows it on the
 * destination, and the same migration cannot run again. Simulated drivers, the synthesized state
 * machine, a dynalite store on disk.
 */
import { describe, expect, it } from 'vitest';
import { openLocalStore } from '../../lib/local/localStore.js';
import { parseReportMessage } from '../../lib/model/reports.js';
import { hypervisorDoc, instanceDoc, messageDoc } from '../store/fixtures.js';
import { runCli, tempFiles } from './runCli.js';

const VM = '6f1e0b2a-5c1d-4d8e-9a51-0c7a2f3b9e11';

/** A local store holding cmp1 and cmp2 and one VM on cmp1, reported just now. */
async function storeWithVm(): Promise<string> {
  const dir = tempFiles('placid-migrate-store-').dir;
  const now = new Date();
  const ts = now.toISOString();
  const doc = messageDoc(
    [
      hypervisorDoc({ host: 'cmp1', nodename: 'cmp1', reported_at: ts, samples: [] }),
      hypervisorDoc({ host: 'cmp2', nodename: 'cmp2', reported_at: ts, samples: [] }),
    ],
    [
      instanceDoc({
        uuid: VM,
        reported_at: ts,
        samples: [{ ts, steal_percent: 14, load5: 2, cpu_percent: 70 }],
      }),
    ],
  );
  const local = await openLocalStore({ dataDir: dir });
  try {
    await local.store.putReports(parseReportMessage(JSON.stringify(doc), now, 'test'));
  } finally {
    await local.close();
  }
  return dir;
}

async function vmsByHost(dir: string): Promise<Record<string, number>> {
  const fleet = JSON.parse((await runCli(['fleet', '--data-dir', dir, '--json'])).stdout) as {
    zones: Array<{ hosts: Array<{ host: string; vms: number }> }>;
  };
  return Object.fromEntries(fleet.zones.flatMap((z) => z.hosts.map((h) => [h.host, h.vms])));
}

describe('placid migrate and the local store', () => {
  it('shows the VM on its destination in placid fleet afterwards', async () => {
    // Prepare
    const dir = await storeWithVm();
    const before = await vmsByHost(dir);
    // Act
    const run = await runCli(['migrate', '--instance', VM, '--to', 'cmp2', '--data-dir', dir]);
    // Assess
    expect(run.status).toBe(0);
    expect(before).toEqual({ cmp1: 1, cmp2: 0 });
    expect(await vmsByHost(dir)).toEqual({ cmp1: 0, cmp2: 1 });
  });

  it('refuses to run the same migration again once it is done', async () => {
    // Prepare
    const dir = await storeWithVm();
    await runCli(['migrate', '--instance', VM, '--to', 'cmp2', '--data-dir', dir]);
    // Act
    const again = await runCli(['migrate', '--instance', VM, '--to', 'cmp2', '--data-dir', dir]);
    // Assess
    expect(again.status).toBe(2);
    expect(again.stderr).toContain(`instance ${VM} is already on cmp2`);
  });
});
