import { describe, expect, it } from 'vitest';
import { at, instanceDoc, message, NOW, useStore } from './fixtures.js';

const h = useStore();

const report = (uuid: string, host: string, minutes: number, extra: Record<string, unknown> = {}) =>
  message([], [instanceDoc({ uuid, host, nodename: host, reported_at: at(minutes), ...extra })]).instances[0];

describe('putInstanceReport', () => {
  it('stores the report without its samples', async () => {
    // Act
    const outcome = await h.store.putInstanceReport(report('i-1', 'cmp1', -1));
    // Assess
    const stored = await h.store.getInstance('i-1');
    expect(outcome).toBe('stored');
    expect(stored).toMatchObject({ uuid: 'i-1', host: 'cmp1', role: 'web', consul: { node: 'web-1' } });
    expect(stored).not.toHaveProperty('samples');
  });

  it('ignores an older report of an instance that has since migrated', async () => {
    // Prepare
    await h.store.putInstanceReport(report('i-2', 'cmp2', -1));
    // Act
    const outcome = await h.store.putInstanceReport(report('i-2', 'cmp1', -10));
    // Assess
    expect(outcome).toBe('stale');
    expect((await h.store.getInstance('i-2'))?.host).toBe('cmp2');
  });

  it('counts a redelivered report as stale', async () => {
    // Prepare
    await h.store.putInstanceReport(report('i-3', 'cmp1', -1));
    // Act
    const outcome = await h.store.putInstanceReport(report('i-3', 'cmp1', -1));
    // Assess
    expect(outcome).toBe('stale');
  });
});

describe('instancesByHost', () => {
  it('lists the instances whose latest report puts them on the host', async () => {
    // Prepare
    await h.store.putInstanceReport(report('m-1', 'src', -10));
    await h.store.putInstanceReport(report('m-2', 'src', -10));
    await h.store.putInstanceReport(report('m-1', 'dst', -1));
    // Act
    const [onSource, onDestination] = await Promise.all([
      h.store.instancesByHost('src'),
      h.store.instancesByHost('dst'),
    ]);
    // Assess
    expect(onSource.map((i) => i.uuid)).toEqual(['m-2']);
    expect(onDestination.map((i) => i.uuid)).toEqual(['m-1']);
  });

  it('leaves out an instance that stopped reporting longer ago than the retention', async () => {
    // Prepare
    await h.store.putInstanceReport(report('gone', 'old-host', -1));
    h.setNow(new Date(NOW.getTime() + 2 * 86_400_000));
    // Act
    const listed = await h.store.instancesByHost('old-host');
    const fetched = await h.store.getInstance('gone');
    // Assess
    expect(listed).toEqual([]);
    expect(fetched).toBeUndefined();
  });
});

describe('listInstances', () => {
  it('includes unexpired instances of every host', async () => {
    // Prepare
    await h.store.putInstanceReport(report('l-1', 'h-a', -1));
    await h.store.putInstanceReport(report('l-2', 'h-b', -1));
    // Act
    const all = await h.store.listInstances();
    // Assess
    expect(all.map((i) => i.uuid)).toEqual(expect.arrayContaining(['l-1', 'l-2']));
  });
});
