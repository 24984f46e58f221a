import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { entityKey } from '../../lib/store/samples.js';
import { at, hypervisorDoc, instanceDoc, message, NOW, type StoreHarness, startStore } from './fixtures.js';

let h: StoreHarness;
beforeAll(async () => {
  h = await startStore();
});
afterAll(async () => {
  await h.local.close();
});
beforeEach(() => {
  h.setNow(NOW);
});

/** `n` one-minute samples ending a minute before NOW, steal 0, 1, 2, … */
const series = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ ts: at(i - n), steal_percent: i, cpu_percent: 50, load5: 1 }));
const window = (fromMin: number, toMin: number) => [new Date(at(fromMin)), new Date(at(toMin))] as const;

describe('putSamples and samplesFor', () => {
  it('returns the samples inside the window, oldest first', async () => {
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

  it('keeps instance samples apart from host samples and records the host', async () => {
    // Prepare
    const { instances } = message([], [instanceDoc({ uuid: 'vm-s', host: 'w2' })]);
    await h.store.putSamples([], instances);
    // Act
    const samples = await h.store.samplesFor({ kind: 'instance', uuid: 'vm-s' }, ...window(-5, 0));
    // Assess
    expect(samples).toEqual([{ ts: at(-1), steal_percent: 12, load5: 4.5, cpu_percent: 80, host: 'w2' }]);
  });

  it('writes the same items again for a redelivered report, so nothing doubles', async () => {
    // Prepare
    const { hypervisors } = message([hypervisorDoc({ host: 'w3', nodename: 'w3', samples: series(40) })]);
    await h.store.putSamples(hypervisors, []);
    // Act
    await h.store.putSamples(hypervisors, []);
    // Assess
    const samples = await h.store.samplesFor({ kind: 'host', host: 'w3', nodename: 'w3' }, ...window(-60, 0));
    expect(samples).toHaveLength(40);
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

describe('entityKey', () => {
  it('cannot confuse a host whose name contains a slash with another host/node pair', () => {
    // Act
    const a = entityKey({ kind: 'host', host: 'a/b', nodename: 'c' });
    const b = entityKey({ kind: 'host', host: 'a', nodename: 'b/c' });
    // Assess
    expect(a).not.toBe(b);
  });
});
