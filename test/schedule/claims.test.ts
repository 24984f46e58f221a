import { describe, expect, it } from 'vitest';
import { claimRequestFor, storeClaim } from '../../lib/schedule/claims.js';
import { type ClaimLimits, type ClaimRequest, claimLimits } from '../../lib/store/claims.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

describe('claimRequestFor', () => {
  it.each([
    ['root + ephemeral + swap in whole GB', { root_gb: 10, ephemeral_gb: 5, swap: 1536 }, false, 17],
    ['no root disk for a volume-backed server', { root_gb: 10, ephemeral_gb: 5, swap: 0 }, true, 5],
  ])('claims %s', (_case, disks, isBfv, diskGb) => {
    // Prepare
    const spec = makeSpec({ flavor: { name: 'f', vcpus: 2, memory_mb: 4096, ...disks }, is_bfv: isBfv });
    // Act
    const claim = claimRequestFor(spec, 'vm-1');
    // Assess
    expect(claim).toEqual({ vcpus: 2, memory_mb: 4096, disk_gb: diskGb, claim_id: 'vm-1' });
  });
});

describe('storeClaim', () => {
  it('remembers the claims it made and counts the ones refused', async () => {
    // Prepare
    const answers = [false, true];
    const calls: [string, ClaimRequest, ClaimLimits][] = [];
    const store = {
      claimResources: async (host: string, _node: string, request: ClaimRequest, limits: ClaimLimits) => {
        calls.push([host, request, limits]);
        return answers.shift()!;
      },
    };
    const tracked = storeClaim(store, makeConfig());
    const spec = makeSpec();
    // Act
    await tracked.claim(makeHost({ host: 'full', nodename: 'full' }), spec, 'vm-1');
    await tracked.claim(makeHost({ host: 'ok', nodename: 'ok' }), spec, 'vm-1');
    // Assess
    expect(tracked.made).toEqual([{ host: 'ok', nodename: 'ok', instance_uuid: 'vm-1' }]);
    expect(tracked.conflicts()).toBe(1);
    expect(calls.map(([host]) => host)).toEqual(['full', 'ok']);
    expect(calls[1][2]).toEqual(claimLimits(makeHost({ host: 'ok', nodename: 'ok' }), makeConfig()));
  });
});
