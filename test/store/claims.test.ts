import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { type ClaimRequest, claimLimits } from '../../lib/store/claims.js';
import { makeConfig, makeHost } from '../helpers/factories.js';
import { at, hypervisorDoc, message, useStore } from './fixtures.js';

const h = useStore();

/** Stores a host with 16 vCPUs (6 used), 32 GiB (8 GiB used) and 500 GB disk (100 GB used). */
async function hostWithUsage(host: string): Promise<void> {
  const doc = hypervisorDoc({
    host,
    nodename: host,
    reported_at: at(-1),
    vcpus_used: 6,
    free_ram_mb: 24_576,
    free_disk_mb: 400 * 1024,
  });
  await h.store.putHostReport(message([doc]).hypervisors[0]);
}

const LIMITS = { vcpus: 16, memory_mb: 32_768, disk_gb: 500 };
const small: ClaimRequest = { vcpus: 1, memory_mb: 512, disk_gb: 1 };

describe('claimResources', () => {
  it('lets exactly as many of 50 concurrent claims succeed as the host has room for', async () => {
    // Prepare: 10 vCPUs free under the limit, each claim takes 1.
    await hostWithUsage('busy');
    // Act
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        h.store.claimResources('busy', 'busy', { ...small, claim_id: `vm-${i}` }, LIMITS),
      ),
    );
    // Assess
    expect(results.filter(Boolean)).toHaveLength(10);
    expect((await h.store.getHost('busy'))?.state.vcpus_used).toBe(16);
  });

  it.each([
    ['vCPUs', { vcpus: 10, memory_mb: 0, disk_gb: 0 }, { vcpus: 11, memory_mb: 0, disk_gb: 0 }],
    ['RAM', { vcpus: 0, memory_mb: 24_576, disk_gb: 0 }, { vcpus: 0, memory_mb: 24_577, disk_gb: 0 }],
    ['disk', { vcpus: 0, memory_mb: 0, disk_gb: 400 }, { vcpus: 0, memory_mb: 0, disk_gb: 401 }],
  ])('fits a claim that uses up the last %s but refuses one unit more', async (resource, fits, tooBig) => {
    // Prepare
    await hostWithUsage(`edge-${resource}`);
    // Act
    const over = await h.store.claimResources(`edge-${resource}`, `edge-${resource}`, tooBig, LIMITS);
    const exact = await h.store.claimResources(`edge-${resource}`, `edge-${resource}`, fits, LIMITS);
    // Assess
    expect([over, exact]).toEqual([false, true]);
  });

  it('does not check a resource that has no limit', async () => {
    // Prepare
    await hostWithUsage('unlimited-ram');
    // Act
    const claimed = await h.store.claimResources(
      'unlimited-ram',
      'unlimited-ram',
      { vcpus: 1, memory_mb: 1_000_000, disk_gb: 0 },
      { vcpus: 16 },
    );
    // Assess
    expect(claimed).toBe(true);
  });

  it('refuses a claim on a host the store has never seen', async () => {
    // Act
    const claimed = await h.store.claimResources('ghost', 'ghost', small, LIMITS);
    // Assess
    expect(claimed).toBe(false);
  });

  it('counts a retried claim with the same claim_id once and reports it held', async () => {
    // Prepare
    await hostWithUsage('retry');
    await h.store.claimResources('retry', 'retry', { ...small, claim_id: 'vm-1' }, LIMITS);
    // Act
    const again = await h.store.claimResources('retry', 'retry', { ...small, claim_id: 'vm-1' }, LIMITS);
    // Assess
    expect(again).toBe(true);
    expect((await h.store.getHost('retry'))?.state.vcpus_used).toBe(7);
  });

  it('shows a claim to the engine the way Nova consumes a request', async () => {
    // Prepare
    await hostWithUsage('consumed');
    // Act
    await h.store.claimResources(
      'consumed',
      'consumed',
      { vcpus: 2, memory_mb: 4096, disk_gb: 20, claim_id: 'vm-9' },
      LIMITS,
    );
    // Assess
    const state = (await h.store.getHost('consumed'))?.state;
    expect(state).toMatchObject({
      vcpus_used: 8,
      free_ram_mb: 24_576 - 4096,
      free_disk_mb: (400 - 20) * 1024,
      num_instances: 1,
      instances: { 'vm-9': { uuid: 'vm-9' } },
    });
  });

  it.each([
    ['a negative vCPU count', { vcpus: -1 }, 'vcpus'],
    ['a NaN memory size', { memory_mb: Number.NaN }, 'memory_mb'],
    ['an infinite disk size', { disk_gb: Number.POSITIVE_INFINITY }, 'disk_gb'],
    ['an empty claim id', { claim_id: '' }, 'claim_id'],
  ])('rejects %s', async (_case, patch, path) => {
    // Act
    const attempt = h.store.claimResources('x', 'x', { ...small, ...patch }, LIMITS);
    // Assess
    await expect(attempt).rejects.toThrow(ValidationError);
    await expect(attempt).rejects.toMatchObject({ issues: [{ path }] });
  });
});

describe('releaseClaim', () => {
  it('gives the claimed resources back', async () => {
    // Prepare
    await hostWithUsage('release');
    await h.store.claimResources('release', 'release', { ...small, claim_id: 'vm-r' }, LIMITS);
    // Act
    const released = await h.store.releaseClaim('release', 'release', 'vm-r');
    // Assess
    expect(released).toBe(true);
    expect(await h.store.getHost('release')).toMatchObject({ claims: {}, state: { vcpus_used: 6 } });
  });

  it('returns false for a claim that does not exist', async () => {
    // Prepare
    await hostWithUsage('no-claim');
    // Act
    const released = await h.store.releaseClaim('no-claim', 'no-claim', 'vm-none');
    // Assess
    expect(released).toBe(false);
  });
});

describe('claimLimits', () => {
  it('multiplies each capacity by its allocation ratio', () => {
    // Prepare
    const host = makeHost({ vcpus_total: 16, total_usable_ram_mb: 1000, total_usable_disk_gb: 100 });
    const config = makeConfig({
      DEFAULT: { reserved_host_memory_mb: 0 },
    });
    host.cpu_allocation_ratio = 4;
    host.ram_allocation_ratio = 1.5;
    host.disk_allocation_ratio = 2;
    // Act
    const limits = claimLimits(host, config);
    // Assess
    expect(limits).toEqual({ vcpus: 64, memory_mb: 1500, disk_gb: 200 });
  });

  it("takes the reservations off first, as Placement's (total - reserved) × ratio does", () => {
    // Prepare: stored RAM and disk usage include the reservation (Nova's free_ram_mb excludes it)
    const host = makeHost({ vcpus_total: 16, total_usable_ram_mb: 4096, total_usable_disk_gb: 100 });
    host.cpu_allocation_ratio = 4;
    host.ram_allocation_ratio = 1.5;
    host.disk_allocation_ratio = 2;
    const config = makeConfig({
      DEFAULT: { reserved_host_cpus: 4, reserved_host_memory_mb: 1024, reserved_host_disk_mb: 10_240 },
    });
    // Act
    const limits = claimLimits(host, config);
    // Assess
    expect(limits).toEqual({ vcpus: 48, memory_mb: 3072 * 1.5 + 1024, disk_gb: 90 * 2 + 10 });
  });
});
