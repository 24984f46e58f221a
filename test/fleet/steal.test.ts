import { describe, expect, it } from 'vitest';
import { LATEST_LOOKBACK_MS, readHostSteal } from '../../lib/fleet/steal.js';
import { at, hypervisorDoc, instanceDoc, message, NOW, useStore } from '../store/fixtures.js';

const h = useStore();

/** The fleet view's default: the ten minutes up to NOW. */
const window = { from: new Date(at(-10)), to: NOW };
const hostSample = (minutes: number, steal_percent: number) => ({
  ts: at(minutes),
  steal_percent,
  cpu_percent: 50,
  load5: 1,
});
const vmSample = (minutes: number, steal_percent: number) => ({
  ts: at(minutes),
  steal_percent,
  load5: 1,
  cpu_percent: 50,
});
const vm = (uuid: string, host: string, samples: unknown[]) =>
  instanceDoc({ uuid, host, nodename: host, samples });

async function put(hosts: Record<string, unknown>[], vms: Record<string, unknown>[] = []): Promise<void> {
  await h.store.putReports(message(hosts, vms));
}

describe('readHostSteal', () => {
  it('reads a host by its own samples: the latest for now, the window’s for the mean', async () => {
    // Prepare
    await put([
      hypervisorDoc({
        host: 's1',
        nodename: 's1',
        samples: [hostSample(-20, 9), hostSample(-5, 2), hostSample(-1, 4)],
      }),
    ]);
    // Act
    const steal = await readHostSteal(h.store, { host: 's1', nodename: 's1' }, [], window);
    // Assess
    expect(steal).toEqual({ now: 4, now_at: at(-1), window_mean: 3, window_samples: 2, source: 'host' });
  });

  it('falls back to the samples its VMs reported on it when the host sends none', async () => {
    // Prepare
    await put(
      [hypervisorDoc({ host: 's2', nodename: 's2', samples: [] })],
      [vm('s2-a', 's2', [vmSample(-4, 10), vmSample(-2, 20)]), vm('s2-b', 's2', [vmSample(-3, 30)])],
    );
    // Act
    const steal = await readHostSteal(h.store, { host: 's2', nodename: 's2' }, ['s2-a', 's2-b'], window);
    // Assess: now is the mean of each VM's latest (20 and 30), dated by the older of them
    expect(steal).toEqual({ now: 25, now_at: at(-3), window_mean: 20, window_samples: 3, source: 'vms' });
  });

  it('leaves out the samples of VMs that are no longer on the host', async () => {
    // Prepare
    await put([], [vm('s3-stays', 's3', [vmSample(-2, 10)]), vm('s3-left', 's3', [vmSample(-2, 90)])]);
    // Act
    const steal = await readHostSteal(h.store, { host: 's3', nodename: 's3' }, ['s3-stays'], window);
    // Assess
    expect([steal.now, steal.window_mean]).toEqual([10, 10]);
  });

  it('takes now from the latest sample before the window, within the lookback', async () => {
    // Prepare
    await put([hypervisorDoc({ host: 's4', nodename: 's4', samples: [hostSample(-40, 6)] })]);
    // Act
    const steal = await readHostSteal(h.store, { host: 's4', nodename: 's4' }, [], window);
    // Assess
    expect(steal).toEqual({ now: 6, now_at: at(-40), window_mean: null, window_samples: 0, source: 'host' });
  });

  it('has no reading of now from a sample older than the lookback', async () => {
    // Prepare
    const tooOld = -10 - LATEST_LOOKBACK_MS / 60_000 - 1;
    await put([hypervisorDoc({ host: 's5', nodename: 's5', samples: [hostSample(tooOld, 6)] })]);
    // Act
    const steal = await readHostSteal(h.store, { host: 's5', nodename: 's5' }, [], window);
    // Assess
    expect([steal.now, steal.source]).toEqual([null, null]);
  });
});
