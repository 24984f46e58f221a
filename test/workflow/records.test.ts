import { beforeEach, describe, expect, it } from 'vitest';
import type { FleetStore } from '../../lib/store/fleetStore.js';
import type { MigrationOutcome } from '../../lib/workflow/ports.js';
import { putMigrationRecord, storeStealReader } from '../../lib/workflow/records.js';
import { at, instanceDoc, message, NOW, storeWithOwnTables, useStore } from '../store/fixtures.js';
import { migration } from './memory.js';

const h = useStore();
let store: FleetStore;
beforeEach(async () => {
  // Tables of its own per test: no record or report of one test is seen by the next.
  store = await storeWithOwnTables(h);
});

const UUID = 'a0000000-0000-4000-8000-000000000001';

function outcome(overrides: Partial<MigrationOutcome> = {}): MigrationOutcome {
  return {
    migration: migration({ instance_uuid: UUID }),
    started_at: at(-5),
    finished_at: at(-1),
    status: 'succeeded',
    duration_seconds: 240,
    migration_seconds: 60,
    bytes: 2 ** 32,
    steal_before_percent: 12,
    final_host: 'cmp-2',
    nova_migration_id: 7,
    error: null,
    cause: null,
    cleanup_problems: [],
    ...overrides,
  };
}

describe('migration records', () => {
  it('stores one item per execution and overwrites it when the same migration writes again', async () => {
    await putMigrationRecord(store, outcome({ status: 'failed' }), 90);
    await putMigrationRecord(store, outcome({ status: 'succeeded' }), 90);
    const records = await store.migrations.forInstance(UUID);
    expect(records.map((r) => [r.migration_id, r.status, r.plan_id])).toEqual([
      ['mig-1', 'succeeded', 'plan-1'],
    ]);
  });

  it('never overwrites the record of another migration with the same key', async () => {
    await putMigrationRecord(store, outcome(), 90);
    const other = outcome({ migration: migration({ instance_uuid: UUID, migration_id: 'mig-2' }) });
    await expect(putMigrationRecord(store, other, 90)).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
  });
});

describe('markMigrated', () => {
  it('sets last_migrated_at in the stored report, where the cooldown reads it', async () => {
    await store.putReports(message([], [instanceDoc()]));
    await store.markMigrated(UUID, at(-1));
    expect((await store.getInstance(UUID))?.last_migrated_at).toBe(at(-1));
  });

  it('never moves last_migrated_at back', async () => {
    await store.putReports(message([], [instanceDoc({ last_migrated_at: at(-2) })]));
    await store.markMigrated(UUID, at(-30));
    expect((await store.getInstance(UUID))?.last_migrated_at).toBe(at(-2));
  });

  it('leaves an instance with no stored report alone', async () => {
    await store.markMigrated('unknown', at(-1));
    expect(await store.getInstance('unknown')).toBeUndefined();
  });
});

describe('storeStealReader', () => {
  it('averages the VM’s steal samples in the window', async () => {
    const samples = [
      { ts: at(-3), steal_percent: 10, load5: 1, cpu_percent: 50 },
      { ts: at(-2), steal_percent: 20, load5: 1, cpu_percent: 50 },
    ];
    await store.putReports(message([], [instanceDoc({ samples })]));
    const steal = await storeStealReader(store)(UUID, new Date(NOW.getTime() - 600_000), NOW);
    expect(steal).toBe(15);
  });

  it('says null when there is no sample', async () => {
    expect(await storeStealReader(store)(UUID, new Date(0), NOW)).toBeNull();
  });

  describe('around a migration from cmp1 to cmp2', () => {
    const from = new Date(NOW.getTime() - 600_000);
    beforeEach(async () => {
      const sample = (minutes: number, steal_percent: number) => ({
        ts: at(minutes),
        steal_percent,
        load5: 1,
        cpu_percent: 50,
      });
      await store.putReports(
        message([], [instanceDoc({ reported_at: at(-5), samples: [sample(-6, 10), sample(-5, 20)] })]),
      );
      await store.putReports(
        message(
          [],
          [instanceDoc({ host: 'cmp2', nodename: 'cmp2', reported_at: at(-1), samples: [sample(-1, 40)] })],
        ),
      );
    });

    it.each([
      ['the source, for steal before the move', 'cmp1', 15],
      ['the destination, for steal after it', 'cmp2', 40],
      ['the node of the VM’s stored report when no host is named', undefined, 40],
    ])('reads the samples on %s', async (_name, host, expected) => {
      // Act
      const steal = await storeStealReader(store)(UUID, from, NOW, host);
      // Assess
      expect(steal).toBe(expected);
    });
  });

  it('says null for a VM the store does not know when no host is named', async () => {
    expect(await storeStealReader(store)('unknown', new Date(0), NOW)).toBeNull();
  });
});
