import { describe, expect, it } from 'vitest';
import { Fleet } from '../../lib/engine/fleet.js';
import { createScheduler } from '../../lib/engine/registry.js';
import type { MigrationInput } from '../../lib/model/migration.js';
import type { StoredInstance } from '../../lib/store/instances.js';
import { enginePlacementChecker } from '../../lib/workflow/placementCheck.js';
import { makeConfig, makeHost } from '../helpers/factories.js';

/** 8 vCPUs, 100 GB of disk and `freeRam` MB of 16 GB free. */
const room = (freeRam: number) => ({
  vcpus_total: 8,
  total_usable_disk_gb: 100,
  free_disk_mb: 100 * 1024,
  free_ram_mb: freeRam,
  total_usable_ram_mb: 16_384,
});

/** The re-check against an in-memory fleet: one roomy host, one too small for the VM. */
function checker() {
  const fleet = Fleet.from([
    makeHost({ host: 'roomy', nodename: 'roomy', ...room(16_384) }),
    makeHost({ host: 'small', nodename: 'small', ...room(512) }),
  ]);
  const instance = {
    uuid: 'vm-1',
    flavor: { name: 'm1.medium', vcpus: 1, memory_mb: 4096, root_gb: 1 },
    availability_zone: null,
  } as unknown as StoredInstance;
  return enginePlacementChecker({
    store: { getInstance: async (uuid) => (uuid === 'vm-1' ? instance : undefined) },
    snapshot: { refresh: async () => ({}) as never, fleet },
    scheduler: createScheduler(makeConfig()),
    clock: { now: () => Date.parse('2026-12-01T12:00:00Z') },
  });
}

const migrationTo = (dest: string) =>
  ({ migration_id: `m-${dest}`, instance_uuid: 'vm-1', dest_host: dest }) as MigrationInput;

describe('enginePlacementChecker', () => {
  it('passes a destination the engine would place on, and says why another fails, check after check', async () => {
    // Prepare
    const check = checker();
    // Act: each check's explained decision is released before the next one reuses its memory
    const verdicts = [];
    for (const dest of ['small', 'roomy', 'small']) verdicts.push(await check.check(migrationTo(dest)));
    // Assess
    expect(verdicts[1]).toEqual({ passes: true, reason: 'roomy passes every enabled filter' });
    expect(verdicts[0].passes).toBe(false);
    expect(verdicts[0].reason).toMatch(/^Placement/);
    expect(verdicts[2]).toEqual(verdicts[0]);
  });
});
