import { describe, expect, it } from 'vitest';
import { at, hypervisorDoc, message, NOW, useStore } from './fixtures.js';

const h = useStore();

/** A validated report for `host` taken `minutes` from NOW, with `used` vCPUs in use. */
function report(host: string, minutes: number, used = 0, extra: Record<string, unknown> = {}) {
  return message([
    hypervisorDoc({ host, nodename: host, reported_at: at(minutes), vcpus_used: used, ...extra }),
  ]).hypervisors[0];
}

describe('putHostReport', () => {
  it('stores the first report of a host', async () => {
    // Act
    const outcome = await h.store.putHostReport(report('first', -10, 2));
    // Assess
    expect(outcome).toBe('stored');
    expect((await h.store.getHost('first'))?.state.vcpus_used).toBe(2);
  });

  it('replaces the state with a newer report', async () => {
    // Prepare
    await h.store.putHostReport(report('newer', -10, 2));
    // Act
    const outcome = await h.store.putHostReport(report('newer', -5, 7));
    // Assess
    expect(outcome).toBe('stored');
    expect(await h.store.getHost('newer')).toMatchObject({ reported_at: at(-5), state: { vcpus_used: 7 } });
  });

  it('leaves the state alone for an older report and counts it stale', async () => {
    // Prepare
    await h.store.putHostReport(report('older', -5, 7));
    // Act
    const outcome = await h.store.putHostReport(report('older', -10, 2));
    // Assess
    expect(outcome).toBe('stale');
    expect(await h.store.getHost('older')).toMatchObject({ reported_at: at(-5), state: { vcpus_used: 7 } });
  });

  it('changes nothing, not even the version, for a redelivered report', async () => {
    // Prepare
    await h.store.putHostReport(report('dup', -5, 3));
    const before = await h.store.getHost('dup');
    // Act
    const outcome = await h.store.putHostReport(report('dup', -5, 3));
    // Assess
    expect(outcome).toBe('stale');
    expect(await h.store.getHost('dup')).toEqual(before);
  });

  it('ends with the newest of reports delivered out of order', async () => {
    // Act
    const outcomes = [];
    for (const [minutes, used] of [
      [-1, 9],
      [-3, 3],
      [-2, 6],
    ]) {
      outcomes.push(await h.store.putHostReport(report('ooo', minutes, used)));
    }
    // Assess
    expect(outcomes).toEqual(['stored', 'stale', 'stale']);
    expect((await h.store.getHost('ooo'))?.state.vcpus_used).toBe(9);
  });

  it('ends with the newest of many reports written concurrently', async () => {
    // Prepare
    const reports = Array.from({ length: 20 }, (_, i) => report('race', -20 + i, i));
    // Act
    await Promise.all(reports.reverse().map((r) => h.store.putHostReport(r)));
    // Assess
    expect(await h.store.getHost('race')).toMatchObject({ reported_at: at(-1), state: { vcpus_used: 19 } });
  });

  it('bumps the version with every stored report', async () => {
    // Prepare: each report changes the state, so each is written
    await h.store.putHostReport(report('versioned', -3, 1));
    await h.store.putHostReport(report('versioned', -2, 2));
    // Act
    await h.store.putHostReport(report('versioned', -1, 3));
    // Assess
    expect((await h.store.getHost('versioned'))?.version).toBe(3);
  });
});

describe('putHostReport with pending claims', () => {
  const limits = { vcpus: 16 };
  const claim = (host: string, id: string) =>
    h.store.claimResources(host, host, { vcpus: 4, memory_mb: 1024, disk_gb: 10, claim_id: id }, limits);

  it('keeps a claim whose instance the newer report does not list yet', async () => {
    // Prepare
    await h.store.putHostReport(report('keeps', -10, 2));
    await claim('keeps', 'vm-new');
    // Act
    await h.store.putHostReport(report('keeps', -5, 3));
    // Assess
    const stored = await h.store.getHost('keeps');
    expect(stored?.state.vcpus_used).toBe(3 + 4);
    expect(Object.keys(stored?.claims ?? {})).toEqual(['vm-new']);
  });

  it('still refuses to overcommit after a report that predates the claims', async () => {
    // Prepare
    await h.store.putHostReport(report('guarded', -10, 12));
    await claim('guarded', 'vm-a');
    await h.store.putHostReport(report('guarded', -5, 12));
    // Act
    const another = await claim('guarded', 'vm-b');
    // Assess
    expect(another).toBe(false);
  });

  it('retires a claim once a report lists its instance', async () => {
    // Prepare
    await h.store.putHostReport(report('retires', -10, 2));
    await claim('retires', 'vm-new');
    // Act
    await h.store.putHostReport(report('retires', -5, 6, { instances: ['vm-new'] }));
    // Assess
    const stored = await h.store.getHost('retires');
    expect(stored?.claims).toEqual({});
    expect(stored?.state.vcpus_used).toBe(6);
  });

  it('drops a claim older than the claim TTL', async () => {
    // Prepare
    await h.store.putHostReport(report('expires', -30, 2));
    h.setNow(new Date(NOW.getTime() - 20 * 60_000));
    await claim('expires', 'vm-lost');
    h.setNow(NOW);
    // Act
    await h.store.putHostReport(report('expires', -5, 2));
    // Assess
    expect((await h.store.getHost('expires'))?.claims).toEqual({});
  });

  it('still counts an older report as stale when claims are pending', async () => {
    // Prepare
    await h.store.putHostReport(report('stale-claims', -5, 2));
    await claim('stale-claims', 'vm-x');
    // Act
    const outcome = await h.store.putHostReport(report('stale-claims', -10, 0));
    // Assess
    expect(outcome).toBe('stale');
    expect((await h.store.getHost('stale-claims'))?.state.vcpus_used).toBe(2 + 4);
  });
});
