import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Fleet } from '../../lib/engine/fleet.js';
import { createScheduler } from '../../lib/engine/registry.js';
import { FleetSnapshot, type SnapshotSource } from '../../lib/schedule/snapshot.js';
import type { FleetStore } from '../../lib/store/fleetStore.js';
import type { StoredHost } from '../../lib/store/hostItems.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';
import { at } from '../store/fixtures.js';
import { hostReport, msAfterNow, NOW, putHosts, useStoreFixture } from './fixtures.js';

const db = useStoreFixture();

const FLAVOR = { name: 'm1.medium', vcpus: 1, memory_mb: 3072, root_gb: 1 };

const freeRam = (snapshot: FleetSnapshot, host: string) =>
  snapshot.fleet.hosts.find((x) => x.host === host)?.free_ram_mb;

/** Three hosts stored at NOW, a snapshot loaded `loadedAt` ms later (a minute by default). */
async function loadedSnapshot(options = {}, loadedAt = 60_000): Promise<FleetSnapshot> {
  await putHosts(db.store, 3, 8192);
  db.h.setNow(msAfterNow(loadedAt));
  const snapshot = new FleetSnapshot(db.store, options);
  await snapshot.refresh();
  return snapshot;
}

describe('FleetSnapshot.refresh', () => {
  it('lists every host on first use, in host order', async () => {
    // Prepare
    await putHosts(db.store, 3, 8192);
    const snapshot = new FleetSnapshot(db.store);
    // Act
    const stats = await snapshot.refresh();
    // Assess
    expect(stats).toMatchObject({ kind: 'full', read: 3, changed: 3, rebuilt: true, hosts: 3 });
    expect(snapshot.fleet.hosts.map((x) => x.host)).toEqual(['cmp0', 'cmp1', 'cmp2']);
  });

  it('sees a changed host on the next incremental read, and reads only what changed', async () => {
    // Prepare
    const snapshot = await loadedSnapshot();
    db.h.setNow(msAfterNow(120_000));
    await db.store.claimResources('cmp1', 'cmp1', { vcpus: 1, memory_mb: 1024, disk_gb: 0 }, {});
    // Act
    const stats = await snapshot.refresh();
    // Assess
    expect(stats).toMatchObject({ kind: 'incremental', read: 1, changed: 1, rebuilt: true, hosts: 3 });
    expect(freeRam(snapshot, 'cmp1')).toBe(8192 - 1024);
    expect(freeRam(snapshot, 'cmp0')).toBe(8192);
  });

  it('rebuilds by replacing only the changed host: the others stay the very same objects', async () => {
    // Prepare
    const snapshot = await loadedSnapshot();
    const [cmp0, cmp1, cmp2] = snapshot.fleet.hosts;
    db.h.setNow(msAfterNow(120_000));
    await db.store.claimResources('cmp1', 'cmp1', { vcpus: 1, memory_mb: 1024, disk_gb: 0 }, {});
    // Act
    await snapshot.refresh();
    // Assess
    const [next0, next1, next2] = snapshot.fleet.hosts;
    expect(next0).toBe(cmp0);
    expect(next2).toBe(cmp2);
    expect(next1).not.toBe(cmp1);
  });

  it("keeps one copy of each host: the stored entry's state is the Fleet's own object", async () => {
    // Prepare
    const snapshot = await loadedSnapshot();
    db.h.setNow(msAfterNow(120_000));
    await db.store.claimResources('cmp1', 'cmp1', { vcpus: 1, memory_mb: 1024, disk_gb: 0 }, {});
    // Act
    await snapshot.refresh();
    // Assess
    for (const name of ['cmp0', 'cmp1', 'cmp2'])
      expect(snapshot.get(name)?.state).toBe(snapshot.fleet.hosts.find((x) => x.host === name));
  });

  it('decides after an in-place refresh as over a full listing', async () => {
    // Prepare: varied free RAM, so the claims move the weighing
    await Promise.all(
      [8192, 6144, 12288, 4096, 10240].map((ram, i) => db.store.putHostReport(hostReport(`cmp${i}`, ram))),
    );
    db.h.setNow(msAfterNow(60_000));
    const snapshot = new FleetSnapshot(db.store);
    await snapshot.refresh();
    const config = makeConfig({
      filter_scheduler: {
        enabled_filters: ['ComputeFilter'],
        weight_classes: ['nova.scheduler.weights.all_weighers'],
      },
    });
    const scheduler = createScheduler(config);
    const decide = async (fleet: Fleet, id: string) => {
      const d = await scheduler.schedule(fleet, makeSpec({ request_id: id, flavor: FLAVOR }), {
        explain: true,
        now: msAfterNow(60_000),
      });
      return { placed: d.placements.map((p) => p.host.host), weighed: d.weighed, eliminated: d.eliminated() };
    };
    await decide(snapshot.fleet, 'w1');
    await decide(snapshot.fleet, 'w2');
    for (const [k, host] of ['cmp2', 'cmp4', 'cmp2'].entries()) {
      db.h.setNow(msAfterNow(120_000 + k * 60_000));
      await db.store.claimResources(host, host, { vcpus: 1, memory_mb: 3072, disk_gb: 0 }, {});
      // Act
      const stats = await snapshot.refresh();
      const listed = new FleetSnapshot(db.store);
      await listed.refresh();
      // Assess
      expect(stats).toMatchObject({ kind: 'incremental', changed: 1, removed: 0 });
      expect(await decide(snapshot.fleet, `r${k}`)).toEqual(await decide(listed.fleet, `r${k}`));
    }
  });

  it('keeps the same Fleet object when nothing changed, so the engine keeps its index', async () => {
    // Prepare
    const snapshot = await loadedSnapshot({}, 1_000);
    const before = snapshot.fleet;
    db.h.setNow(msAfterNow(5_000));
    // Act: inside the overlap window the read repeats every host, at the versions already held
    const stats = await snapshot.refresh();
    // Assess
    expect(stats).toMatchObject({ kind: 'incremental', read: 3, changed: 0, rebuilt: false });
    expect(snapshot.fleet).toBe(before);
  });

  it('with quickOverlapMs, reads back only that far between full-overlap reads', async () => {
    // Prepare: every host was written a second before the load, inside the store's 10 s overlap
    const snapshot = await loadedSnapshot({ quickOverlapMs: 1_000 }, 1_000);
    db.h.setNow(msAfterNow(3_000));
    // Act
    const stats = await snapshot.refresh();
    // Assess: without quickOverlapMs this read lists all three again (see above)
    expect(stats).toMatchObject({ kind: 'incremental', read: 0, changed: 0 });
  });

  it('with quickOverlapMs, still finds a write stamped before the quick window on the next full-overlap read', async () => {
    // Prepare: loaded at +60 s; a writer whose clock is 5 s behind claims on cmp1 after that
    const snapshot = await loadedSnapshot({ quickOverlapMs: 1_000 });
    db.h.setNow(msAfterNow(56_000));
    await db.store.claimResources('cmp1', 'cmp1', { vcpus: 1, memory_mb: 1024, disk_gb: 0 }, {});
    db.h.setNow(msAfterNow(62_000));
    // Act
    const quick = await snapshot.refresh();
    const ramAfterQuick = freeRam(snapshot, 'cmp1');
    db.h.setNow(msAfterNow(71_000));
    const long = await snapshot.refresh();
    // Assess
    expect(quick).toMatchObject({ kind: 'incremental', read: 0 });
    expect(ramAfterQuick).toBe(8192);
    expect(long).toMatchObject({ kind: 'incremental', changed: 1 });
    expect(freeRam(snapshot, 'cmp1')).toBe(8192 - 1024);
  });

  it('adds a host first reported after the snapshot was loaded', async () => {
    // Prepare
    const snapshot = await loadedSnapshot();
    db.h.setNow(msAfterNow(120_000));
    await db.store.putHostReport(hostReport('a-new', 4096, at(1)));
    // Act
    await snapshot.refresh();
    // Assess
    expect(snapshot.fleet.hosts.map((x) => x.host)).toEqual(['a-new', 'cmp0', 'cmp1', 'cmp2']);
  });

  it('reads nothing while the last read is younger than maxAgeMs', async () => {
    // Prepare
    const snapshot = await loadedSnapshot({ maxAgeMs: 5_000 });
    db.h.setNow(msAfterNow(64_000));
    // Act
    const stats = await snapshot.refresh();
    // Assess
    expect(stats).toMatchObject({ kind: 'fresh', read: 0, rebuilt: false });
  });

  it('lists the whole fleet again once fullRefreshMs has passed', async () => {
    // Prepare
    const snapshot = await loadedSnapshot({ fullRefreshMs: 300_000 });
    db.h.setNow(msAfterNow(60_000 + 300_000));
    // Act
    const stats = await snapshot.refresh();
    // Assess
    expect(stats).toMatchObject({ kind: 'full', read: 3, changed: 0, rebuilt: false });
  });

  it('drops a host that a full listing no longer has', async () => {
    // Prepare
    const snapshot = await loadedSnapshot({ fullRefreshMs: 300_000 });
    await db.h.local.client.send(
      new DeleteCommand({ TableName: db.store.ctx.tables.hosts, Key: { host: 'cmp2', nodename: 'cmp2' } }),
    );
    db.h.setNow(msAfterNow(60_000 + 300_000));
    // Act
    const stats = await snapshot.refresh();
    // Assess
    expect(stats).toMatchObject({ kind: 'full', removed: 1, rebuilt: true, hosts: 2 });
    expect(snapshot.fleet.hosts.map((x) => x.host)).toEqual(['cmp0', 'cmp1']);
  });

  it('shares one read between concurrent callers', async () => {
    // Prepare
    const snapshot = await loadedSnapshot();
    db.h.setNow(msAfterNow(120_000));
    // Act
    const [a, b] = await Promise.all([snapshot.refresh(), snapshot.refresh()]);
    // Assess
    expect(a).toBe(b);
  });
});

describe('FleetSnapshot version order', () => {
  /** A source whose reads are scripted: a full listing, then the given incremental results. */
  function scripted(listing: StoredHost[], ...changes: StoredHost[][]): SnapshotSource {
    let t = NOW.getTime();
    const tick = {
      now: () => {
        t += 1_000;
        return t;
      },
    };
    return {
      ctx: { ...db.h.store.ctx, clock: tick },
      listHosts: async () => listing,
      hostsChangedSince: async () => ({ hosts: changes.shift() ?? [], cursor: 'c', sightings: new Map() }),
    } as unknown as SnapshotSource;
  }
  const stored = (version: number, freeRamMb: number): StoredHost => ({
    state: makeHost({ host: 'x', nodename: 'x', free_ram_mb: freeRamMb }),
    reported_at: at(-1),
    version,
    updated_at: NOW.getTime(),
    claims: {},
  });

  it('keeps the higher version when a later read returns an older copy of a host', async () => {
    // Prepare
    const snapshot = new FleetSnapshot(scripted([stored(1, 100)], [stored(3, 300)], [stored(2, 200)]));
    await snapshot.refresh();
    await snapshot.refresh();
    // Act
    const stats = await snapshot.refresh();
    // Assess
    expect(stats.changed).toBe(0);
    expect(snapshot.get('x')?.version).toBe(3);
    expect(snapshot.fleet.hosts[0].free_ram_mb).toBe(300);
  });
});

describe('FleetSnapshot with revalidateInBackground', () => {
  it('answers from what it holds and reads the change in the background', async () => {
    // Prepare
    const snapshot = await loadedSnapshot({ revalidateInBackground: true });
    db.h.setNow(msAfterNow(120_000));
    await db.store.claimResources('cmp1', 'cmp1', { vcpus: 1, memory_mb: 1024, disk_gb: 0 }, {});
    // Act
    const stats = await snapshot.refresh();
    const before = freeRam(snapshot, 'cmp1');
    await snapshot.settled();
    // Assess
    expect(stats.kind).toBe('fresh');
    expect(before).toBe(8192);
    expect(freeRam(snapshot, 'cmp1')).toBe(8192 - 1024);
  });

  it('waits for the first load, which nothing could answer from', async () => {
    // Prepare
    await putHosts(db.store, 2, 8192);
    const snapshot = new FleetSnapshot(db.store, { revalidateInBackground: true });
    // Act
    const stats = await snapshot.refresh();
    // Assess
    expect(stats).toMatchObject({ kind: 'full', hosts: 2 });
  });

  it('keeps a failed background read as backgroundFailure, and answers on', async () => {
    // Prepare: a db.store whose change feed breaks after the first load
    await putHosts(db.store, 3, 8192);
    let broken = false;
    const flaky = Object.assign(Object.create(db.store) as FleetStore, {
      hostsChangedSince: (cursor?: string) =>
        broken ? Promise.reject(new Error('store unreachable')) : db.store.hostsChangedSince(cursor),
    });
    const snapshot = new FleetSnapshot(flaky, { revalidateInBackground: true });
    await snapshot.refresh();
    broken = true;
    db.h.setNow(msAfterNow(120_000));
    // Act
    const stats = await snapshot.refresh();
    await snapshot.settled();
    // Assess
    expect(stats.kind).toBe('fresh');
    expect(String(snapshot.backgroundFailure)).toContain('store unreachable');
    expect(snapshot.size).toBe(3);
  });
});
