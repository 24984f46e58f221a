import { beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import type { FleetStore } from '../../lib/store/fleetStore.js';
import { at, hypervisorDoc, message, NOW, storeWithOwnTables, useStore } from './fixtures.js';

const h = useStore();

const report = (host: string, minutes = -1, nodename = host, used = 0) =>
  message([hypervisorDoc({ host, nodename, reported_at: at(minutes), vcpus_used: used })]).hypervisors[0];
const names = (hosts: { state: { host: string } }[]) => hosts.map((x) => x.state.host).sort();
const later = (ms: number) => h.setNow(new Date(NOW.getTime() + ms));

describe('getHost', () => {
  it('finds a node by host and nodename', async () => {
    // Prepare
    await h.store.putHostReport(report('multi', -1, 'node-b'));
    // Act
    const found = await h.store.getHost('multi', 'node-b');
    // Assess
    expect(found?.state).toMatchObject({ host: 'multi', nodename: 'node-b' });
  });

  it('returns undefined for a host it has no report of', async () => {
    // Act
    const found = await h.store.getHost('nowhere');
    // Assess
    expect(found).toBeUndefined();
  });
});

describe('listHosts', () => {
  it('reads every host across pages', async () => {
    // Prepare
    const store = await storeWithOwnTables(h);
    for (const host of ['a', 'b', 'c', 'd', 'e']) await store.putHostReport(report(host));
    // Act
    const hosts = await store.listHosts(2);
    // Assess
    expect(names(hosts)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('hostsChangedSince', () => {
  let store: FleetStore;
  beforeEach(async () => {
    store = await storeWithOwnTables(h, { changeOverlapMs: 10_000 });
  });

  it('returns every host when given no cursor', async () => {
    // Prepare
    for (const host of ['a', 'b', 'c']) await store.putHostReport(report(host));
    // Act
    const changes = await store.hostsChangedSince();
    // Assess
    expect(names(changes.hosts)).toEqual(['a', 'b', 'c']);
  });

  it('returns only the hosts written after the cursor', async () => {
    // Prepare
    for (const host of ['a', 'b', 'c']) await store.putHostReport(report(host, -5));
    later(30_000);
    const { cursor } = await store.hostsChangedSince();
    later(90_000);
    await store.putHostReport(report('b', -1, 'b', 4)); // changed: an unchanged state is not rewritten
    await store.putHostReport(report('d', -1));
    // Act
    const changes = await store.hostsChangedSince(cursor);
    // Assess
    expect(names(changes.hosts)).toEqual(['b', 'd']);
  });

  it('still sees a write stamped a little before the cursor by a writer with a slower clock', async () => {
    // Prepare
    await store.putHostReport(report('a'));
    later(30_000);
    await store.putHostReport(report('b'));
    const { cursor } = await store.hostsChangedSince();
    later(25_000);
    await store.putHostReport(report('slow-writer'));
    // Act
    const changes = await store.hostsChangedSince(cursor);
    // Assess
    expect(names(changes.hosts)).toContain('slow-writer');
    expect(names(changes.hosts)).not.toContain('a');
  });

  it('reports a claim as a change, with the claim applied', async () => {
    // Prepare
    await store.putHostReport(report('claimed'));
    const { cursor } = await store.hostsChangedSince();
    later(60_000);
    await store.claimResources('claimed', 'claimed', { vcpus: 3, memory_mb: 0, disk_gb: 0 }, {});
    // Act
    const changes = await store.hostsChangedSince(cursor);
    // Assess
    expect(changes.hosts).toHaveLength(1);
    expect(changes.hosts[0]).toMatchObject({ version: 2, state: { host: 'claimed', vcpus_used: 3 } });
  });

  it('moves the cursor to the time of each read', async () => {
    // Prepare
    await store.putHostReport(report('a'));
    const first = await store.hostsChangedSince();
    later(60_000);
    await store.putHostReport(report('b'));
    // Act
    const second = await store.hostsChangedSince(first.cursor);
    const third = await store.hostsChangedSince(second.cursor);
    // Assess
    expect(second.cursor).not.toBe(first.cursor);
    expect(third.cursor).toBe(second.cursor);
  });

  it.each([
    ['garbage', 'not-a-cursor'],
    ['a cursor of another version', Buffer.from('{"v":2,"since":1}').toString('base64url')],
  ])('rejects %s', async (_case, cursor) => {
    // Act
    const attempt = store.hostsChangedSince(cursor);
    // Assess
    await expect(attempt).rejects.toThrow(ValidationError);
    await expect(attempt).rejects.toThrow(/not a cursor returned by hostsChangedSince/);
  });
});
