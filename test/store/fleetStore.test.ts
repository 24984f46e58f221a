import { describe, expect, it } from 'vitest';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { at, hypervisorDoc, instanceDoc, message, useStore } from './fixtures.js';

const h = useStore();

const fleetMessage = (prefix: string, minutes: number) =>
  message(
    [1, 2, 3].map((n) =>
      hypervisorDoc({ host: `${prefix}-h${n}`, nodename: `${prefix}-h${n}`, reported_at: at(minutes) }),
    ),
    [1, 2].map((n) =>
      instanceDoc({
        uuid: `${prefix}-vm${n}`,
        host: `${prefix}-h1`,
        nodename: `${prefix}-h1`,
        reported_at: at(minutes),
      }),
    ),
  );

describe('FleetStore.putReports', () => {
  it('stores every state and sample of a message and counts them', async () => {
    // Act
    const outcome = await h.store.putReports(fleetMessage('all', -1));
    // Assess
    expect(outcome).toEqual({
      hosts: { stored: 3, unchanged: 0, stale: 0 },
      instances: { stored: 2, unchanged: 0, stale: 0 },
      // One page per hypervisor; h1's also carries its two VMs' samples.
      samples: { written: 3, calls: 1, retries: 0, samples: 5, digests: 1 },
    });
    expect((await h.store.instancesByHost('all-h1')).map((i) => i.uuid).sort()).toEqual([
      'all-vm1',
      'all-vm2',
    ]);
  });

  it('changes no state when the same message is delivered again', async () => {
    // Prepare
    await h.store.putReports(fleetMessage('again', -1));
    const before = await h.store.getHost('again-h2');
    // Act
    const outcome = await h.store.putReports(fleetMessage('again', -1));
    // Assess
    expect(outcome.hosts).toEqual({ stored: 0, unchanged: 0, stale: 3 });
    expect(outcome.instances).toEqual({ stored: 0, unchanged: 0, stale: 2 });
    expect(await h.store.getHost('again-h2')).toEqual(before);
  });

  it('does not let an older message regress newer states', async () => {
    // Prepare
    await h.store.putReports(fleetMessage('regress', -1));
    // Act
    const outcome = await h.store.putReports(fleetMessage('regress', -5));
    // Assess
    expect(outcome.hosts.stale).toBe(3);
    expect((await h.store.getHost('regress-h3'))?.reported_at).toBe(at(-1));
  });

  it('counts newer reports of unchanged states as unchanged, and writes no state for them', async () => {
    // Prepare
    await h.store.putReports(fleetMessage('quiet', -5));
    // Act
    const outcome = await h.store.putReports(fleetMessage('quiet', -1));
    // Assess
    expect(outcome.instances).toEqual({ stored: 0, unchanged: 2, stale: 0 });
    expect(outcome.hosts).toEqual({ stored: 0, unchanged: 3, stale: 0 });
    expect((await h.store.getInstance('quiet-vm1'))?.reported_at).toBe(at(-5));
    expect((await h.store.getHost('quiet-h1'))?.reported_at).toBe(at(-5));
  });
});

describe('FleetStore options', () => {
  it.each([0, 6 * 3_600_000 + 1])(
    'rejects an instance heartbeat of %i ms against a one-day retention',
    (ms) => {
      // Act
      const make = () =>
        new FleetStore({ ...h.store.ctx, instanceHeartbeatMs: ms, instanceRetentionSeconds: 86_400 });
      // Assess
      expect(make).toThrow(/instanceHeartbeatMs must be positive and at most a quarter/);
    },
  );
});
