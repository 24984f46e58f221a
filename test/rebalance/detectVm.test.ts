import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectVm } from '../../lib/rebalance/detectVm.js';
import { makeVm, minuteSamples, minutesAgo, NOW, settingsWith } from './fixtures.js';

const SETTINGS = settingsWith();

describe('detectVm: entering', () => {
  it('marks a VM suffering when steal and load5 per vCPU stay above their thresholds', () => {
    // Prepare: 4 vCPUs, load5 6 → 1.5 per vCPU; steal 20 %.
    const vm = makeVm({ reading: { steal: 20, load5: 6, cpu: 60 } });
    // Act
    const result = detectVm(vm, NOW, SETTINGS);
    // Assess
    expect(result).toMatchObject({ status: 'suffering', changed: true, demandVcpus: 3.2, stolenVcpus: 0.8 });
    expect(result.reason).toBe(
      'suffering: steal above 10.0% (lowest 20.0%, mean 20.0%) and load5 above 1.00/vCPU (lowest 1.50, mean 1.50) in all 10 covered buckets',
    );
  });

  it.each([
    [
      'steal is below the threshold',
      { steal: 8, load5: 6 },
      'not suffering: steal not always above 10.0% (lowest 8.0%',
    ],
    [
      'load is low: steal without delayed work',
      { steal: 30, load5: 2 },
      'but load5 not always above 1.00/vCPU (lowest 0.50, mean 0.50): steal without delayed work',
    ],
    ['steal equals the threshold', { steal: 10, load5: 6 }, 'not suffering: steal not always above 10.0%'],
  ])('does not enter when %s', (_case, reading, reason) => {
    // Act
    const result = detectVm(makeVm({ reading }), NOW, SETTINGS);
    // Assess
    expect(result.status).toBe('ok');
    expect(result.changed).toBe(false);
    expect(result.reason).toContain(reason);
  });

  it('does not enter when steal dips below the threshold for one minute of the window', () => {
    // Prepare
    const vm = makeVm({ samples: minuteSamples(10, (ago) => ({ steal: ago === 5 ? 4 : 40, load5: 8 })) });
    // Act
    const result = detectVm(vm, NOW, SETTINGS);
    // Assess
    expect(result.status).toBe('ok');
    expect(result.reason).toContain('lowest 4.0%, mean 36.4%');
  });
});

describe('detectVm: hysteresis', () => {
  it.each([
    [
      'steal between exit and entry',
      { steal: 7, load5: 6 },
      'suffering',
      'still suffering: mean steal 7.0% has not dropped below the exit threshold 5.0%',
    ],
    [
      'steal below the exit threshold',
      { steal: 3, load5: 6 },
      'ok',
      'recovered: mean steal 3.0% dropped below the exit threshold 5.0%',
    ],
    [
      'load below its exit threshold',
      { steal: 20, load5: 2 },
      'ok',
      'recovered: mean load5 0.50/vCPU dropped below 0.80',
    ],
  ])('a suffering VM with %s', (_case, reading, status, reason) => {
    // Act
    const result = detectVm(makeVm({ reading }), NOW, SETTINGS, true);
    // Assess
    expect(result.status).toBe(status);
    expect(result.changed).toBe(status === 'ok');
    expect(result.reason).toContain(reason);
  });

  it('never flips on values between the exit and entry thresholds (property)', () => {
    // Prepare
    const between = fc.record({
      steal: fc.double({ min: 5, max: 10, noNaN: true }),
      load5: fc.double({ min: 0.8 * 4, max: 1.0 * 4, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(between, { minLength: 10, maxLength: 10 }), fc.boolean(), (readings, was) => {
        const vm = makeVm({ samples: minuteSamples(10, (ago) => readings[ago]) });
        // Act
        const result = detectVm(vm, NOW, SETTINGS, was);
        // Assess
        expect(result.status === 'suffering').toBe(was);
        expect(result.changed).toBe(false);
      }),
    );
  });
});

describe('detectVm: data that never triggers', () => {
  it.each([
    [
      'stale samples',
      makeVm({ samples: minuteSamples(10, () => ({ steal: 50, load5: 9 })).slice(5) }),
      'stale',
      'stale: newest usable sample is 5.0 min old',
    ],
    [
      'too few samples',
      makeVm({ samples: minuteSamples(5, () => ({ steal: 50, load5: 9 })) }),
      'insufficient_data',
      '5 of 10',
    ],
    ['a flavor without vCPUs', makeVm({ flavor: { vcpus: 0 } }), 'insufficient_data', 'flavor has 0 vCPUs'],
    [
      'a fresh migration',
      makeVm({ last_migrated_at: minutesAgo(3) }),
      'insufficient_data',
      `only samples since its migration at ${minutesAgo(3)} count`,
    ],
  ])('%s leave a suffering VM not suffering', (_case, vm, status, reason) => {
    // Act
    const result = detectVm(vm, NOW, SETTINGS, true);
    // Assess
    expect(result).toMatchObject({ status, changed: true, steal: null, demandVcpus: null });
    expect(result.reason).toContain(reason);
  });

  it('ignores stored samples taken on another host', () => {
    // Prepare: the old host's samples show 50 % steal, the current host's 2 %.
    const samples = minuteSamples(10, () => ({ steal: 2, load5: 6 })).map((s) => ({ ...s, host: 'cmp1' }));
    const old = minuteSamples(10, () => ({ steal: 50, load5: 6 })).map((s) => ({ ...s, host: 'cmp9' }));
    // Act
    const result = detectVm(makeVm({ samples: [...samples, ...old] }), NOW, SETTINGS);
    // Assess
    expect(result.steal?.max).toBe(2);
  });

  it('never reports stale data as suffering (property)', () => {
    // Prepare
    const reading = fc.record({
      steal: fc.double({ min: 0, max: 100, noNaN: true }),
      load5: fc.double({ min: 0, max: 64, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(reading, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 4, max: 600 }),
        fc.boolean(),
        (readings, age, was) => {
          const samples = readings.map((r, i) => ({
            ts: minutesAgo(age + i),
            steal_percent: r.steal,
            load5: r.load5,
            cpu_percent: 50,
          }));
          // Act
          const result = detectVm(makeVm({ samples }), NOW, SETTINGS, was);
          // Assess
          expect(result.status).toBe('stale');
        },
      ),
    );
  });
});
