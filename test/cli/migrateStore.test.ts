/**
 * `placid migrate` leaves the local store where the VM is: `placid fleet` shows it on the
 * destination, and the same migration cannot run again. Simulated drivers, the synthesized state
 * machine, a dynalite store on disk.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';
import { storeWithVm } from './storeWithVm.js';

const VM = '6f1e0b2a-5c1d-4d8e-9a51-0c7a2f3b9e11';

async function vmsByHost(dir: string): Promise<Record<string, number>> {
  const fleet = JSON.parse((await runCli(['fleet', '--data-dir', dir, '--json'])).stdout) as {
    zones: Array<{ hosts: Array<{ host: string; vms: number }> }>;
  };
  return Object.fromEntries(fleet.zones.flatMap((z) => z.hosts.map((h) => [h.host, h.vms])));
}

describe('placid migrate and the local store', () => {
  it('shows the VM on its destination in placid fleet afterwards', async () => {
    // Prepare
    const dir = await storeWithVm(VM, 'placid-migrate-store-');
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
    const dir = await storeWithVm(VM, 'placid-migrate-store-');
    await runCli(['migrate', '--instance', VM, '--to', 'cmp2', '--data-dir', dir]);
    // Act
    const again = await runCli(['migrate', '--instance', VM, '--to', 'cmp2', '--data-dir', dir]);
    // Assess
    expect(again.status).toBe(2);
    expect(again.stderr).toContain(`instance ${VM} is already on cmp2`);
  });
});
