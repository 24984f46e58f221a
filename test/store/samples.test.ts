import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { FleetStore } from '../../lib/store/fleetStore.js';
import { MAX_PAGE_BYTES, nodeEntityKey } from '../../lib/store/samplePages.js';
import { at, hypervisorDoc, instanceDoc, message, NOW, storeWithOwnTables, useStore } from './fixtures.js';

const h = useStore();

/** `n` one-minute host samples ending a minute before NOW, steal 0, 1, 2, … (mod 100) */
const series = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ ts: at(i - n), steal_percent: i % 100, cpu_percent: 50, load5: 1 }));
/** `n` one-minute instance samples ending a minute before NOW. */
const vmSeries = (n: number, steal = 0) =>
  Array.from({ length: n }, (_, i) => ({
    ts: at(i - n),
    steal_percent: (steal + i) % 100,
    load5: 1,
    cpu_percent: 20,
  }));
const window = (fromMin: number, toMin: number) => [new Date(at(fromMin)), new Date(at(toMin))] as const;
const vm = (uuid: string, host: string, samples: unknown[]) =>
  instanceDoc({ uuid, host, nodename: host, samples });

/** DynamoDB's item size, roughly: attribute names plus values (map keys count like names). */
function itemBytes(item: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    bytes += name.length;
    if (typeof value === 'string') bytes += value.length;
    else if (typeof value === 'number') bytes += 8;
    else
      for (const [k, v] of Object.entries(value as Record<string, string>)) bytes += k.length + v.length + 3;
  }
  return bytes;
}

/** The sample pages stored (the window digests beside them are tested in fleetWindows.test.ts). */
async function scanSamples(store: FleetStore): Promise<Record<string, unknown>[]> {
  const { Items } = await store.ctx.doc.send(new ScanCommand({ TableName: store.ctx.tables.samples }));
  return (Items ?? []).filter((item) => String(item.entity).startsWith('host/'));
}

describe('samplesFor', () => {
  it('returns a host’s samples inside the window, oldest first', async () => {
    // Prepare
    const { hypervisors } = message([hypervisorDoc({ host: 'w1', nodename: 'w1', samples: series(30) })]);
    await h.store.putSamples(hypervisors, []);
    // Act
    const samples = await h.store.samplesFor(
      { kind: 'host', host: 'w1', nodename: 'w1' },
      ...window(-10, -6),
    );
    // Assess
    expect(samples.map((s) => s.steal_percent)).toEqual([20, 21, 22, 23, 24]);
  });

  it('finds an instance’s samples on the node it was reported on, and says which host', async () => {
    // Prepare
    const { instances } = message([], [instanceDoc({ uuid: 'vm-s', host: 'w2', nodename: 'w2' })]);
    await h.store.putSamples([], instances);
    // Act
    const samples = await h.store.samplesFor(
      { kind: 'instance', uuid: 'vm-s', host: 'w2', nodename: 'w2' },
      ...window(-5, 0),
    );
    // Assess
    expect(samples).toEqual([{ ts: at(-1), steal_percent: 12, load5: 4.5, cpu_percent: 80, host: 'w2' }]);
  });

  it('merges an instance’s samples from several nodes (before and after a migration)', async () => {
    // Prepare
    const before = message([], [vm('vm-m', 'src', vmSeries(3).slice(0, 2))]);
    const after = message([], [vm('vm-m', 'dst', vmSeries(3).slice(2))]);
    await h.store.putSamples([], before.instances);
    await h.store.putSamples([], after.instances);
    const nodes = [
      { host: 'src', nodename: 'src' },
      { host: 'dst', nodename: 'dst' },
    ];
    // Act
    const samples = await h.store.samplesFor({ kind: 'instance', uuid: 'vm-m', nodes }, ...window(-60, 0));
    // Assess
    expect(samples.map((s) => [s.ts, s.host])).toEqual([
      [at(-3), 'src'],
      [at(-2), 'src'],
      [at(-1), 'dst'],
    ]);
  });

  it('leaves out samples past their retention even before DynamoDB deletes them', async () => {
    // Prepare
    const { hypervisors } = message([hypervisorDoc({ host: 'w4', nodename: 'w4', samples: series(3) })]);
    await h.store.putSamples(hypervisors, []);
    h.setNow(new Date(NOW.getTime() + 3 * 86_400_000));
    // Act
    const samples = await h.store.samplesFor({ kind: 'host', host: 'w4', nodename: 'w4' }, ...window(-60, 0));
    // Assess
    expect(samples).toEqual([]);
  });
});

describe('nodeWindow', () => {
  it('returns exactly the samples written, host and instances apart, window bounds included', async () => {
    // Prepare
    const msg = message(
      [hypervisorDoc({ host: 'n1', nodename: 'n1', samples: series(10) })],
      [vm('n1-a', 'n1', vmSeries(10, 40)), vm('n1-b', 'n1', vmSeries(4, 70))],
    );
    await h.store.putSamples(msg.hypervisors, msg.instances);
    // Act: from the 3rd-last to the last minute sample, both ends exactly on a sample
    const got = await h.store.nodeWindow('n1', 'n1', new Date(at(-3)), new Date(at(-1)));
    // Assess
    const ts = [at(-3), at(-2), at(-1)];
    expect(got.host).toEqual(msg.hypervisors[0].samples.filter((s) => ts.includes(s.ts)));
    expect([...got.instances.keys()].sort()).toEqual(['n1-a', 'n1-b']);
    expect(got.instances.get('n1-a')).toEqual(msg.instances[0].samples.filter((s) => ts.includes(s.ts)));
    expect(got.instances.get('n1-b')).toEqual(msg.instances[1].samples.filter((s) => ts.includes(s.ts)));
  });

  it('returns a sample that two messages carried once', async () => {
    // Prepare: the agent resends its last two samples in the next report
    const first = message([hypervisorDoc({ host: 'n2', nodename: 'n2', samples: series(5) })]);
    const second = message([hypervisorDoc({ host: 'n2', nodename: 'n2', samples: series(5).slice(3) })]);
    await h.store.putSamples(first.hypervisors, []);
    await h.store.putSamples(second.hypervisors, []);
    // Act
    const got = await h.store.nodeWindow('n2', 'n2', ...window(-60, 0));
    // Assess
    expect(got.host).toEqual(first.hypervisors[0].samples);
  });

  it('is empty for a window that ends before it starts', async () => {
    // Act
    const got = await h.store.nodeWindow('n1', 'n1', ...window(0, -60));
    // Assess
    expect([got.host, got.instances.size]).toEqual([[], 0]);
  });
});

describe('sample pages', () => {
  it('writes one page per node and message, its VMs included, and the same items again on redelivery', async () => {
    // Prepare
    const store = await storeWithOwnTables(h);
    const msg = message(
      [hypervisorDoc({ host: 'p1', nodename: 'p1' }), hypervisorDoc({ host: 'p2', nodename: 'p2' })],
      [vm('p1-a', 'p1', vmSeries(2)), vm('p1-b', 'p1', vmSeries(2))],
    );
    const first = await store.putSamples(msg.hypervisors, msg.instances);
    const items = await scanSamples(store);
    // Act
    const again = await store.putSamples(msg.hypervisors, msg.instances);
    // Assess
    expect([first.written, first.samples]).toEqual([2, 6]);
    expect([again.written, again.samples]).toEqual([2, 6]);
    expect(items.map((i) => i.entity).sort()).toEqual(['host/p1/p1', 'host/p2/p2']);
    expect(await scanSamples(store)).toEqual(items);
  });

  it('groups instances reported without their hypervisor by node', async () => {
    // Prepare
    const store = await storeWithOwnTables(h);
    const msg = message(
      [],
      [vm('g-a', 'g1', vmSeries(1)), vm('g-b', 'g2', vmSeries(1)), vm('g-c', 'g1', vmSeries(1))],
    );
    // Act
    const stats = await store.putSamples([], msg.instances);
    // Assess
    expect(stats.written).toBe(2);
    const [g1, g2] = await Promise.all([
      store.nodeWindow('g1', 'g1', ...window(-5, 0)),
      store.nodeWindow('g2', 'g2', ...window(-5, 0)),
    ]);
    expect([[...g1.instances.keys()].sort(), [...g2.instances.keys()]]).toEqual([['g-a', 'g-c'], ['g-b']]);
  });

  it('splits a node with very many samples into several pages, each under the size budget', async () => {
    // Prepare: 30 VMs × 60 samples, about 170 KB of samples
    const store = await storeWithOwnTables(h);
    const vms = Array.from({ length: 30 }, (_, i) => vm(`big-${i}`, 'big', vmSeries(60, i)));
    const msg = message([hypervisorDoc({ host: 'big', nodename: 'big' })], vms);
    // Act
    const stats = await store.putSamples(msg.hypervisors, msg.instances);
    // Assess
    const items = await scanSamples(store);
    expect(stats.written).toBeGreaterThan(1);
    expect(items).toHaveLength(stats.written);
    for (const item of items) expect(itemBytes(item)).toBeLessThan(MAX_PAGE_BYTES + 1024);
    const got = await store.nodeWindow('big', 'big', ...window(-120, 0));
    expect(got.instances.size).toBe(30);
    expect(got.instances.get('big-7')).toEqual(msg.instances[7].samples);
  });

  it('splits samples spanning more than an hour and still finds all of them', async () => {
    // Prepare
    const store = await storeWithOwnTables(h);
    const msg = message([hypervisorDoc({ host: 'long', nodename: 'long', samples: series(150) })]);
    // Act
    const stats = await store.putSamples(msg.hypervisors, []);
    // Assess
    expect(stats.written).toBe(3);
    const got = await store.nodeWindow('long', 'long', ...window(-100, -30));
    expect(got.host).toEqual(msg.hypervisors[0].samples.slice(50, 121));
  });
});

describe('nodeEntityKey', () => {
  it('cannot confuse a host whose name contains a slash with another host/node pair', () => {
    // Act
    const a = nodeEntityKey({ host: 'a/b', nodename: 'c' });
    const b = nodeEntityKey({ host: 'a', nodename: 'b/c' });
    // Assess
    expect(a).not.toBe(b);
  });
});
