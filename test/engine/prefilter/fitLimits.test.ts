import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  collectFitting,
  FitLimitTable,
  limitsApply,
  MAX_LIMIT,
} from '../../../lib/engine/prefilter/fitLimits.js';
import { DISK_GB, MEMORY_MB, VCPU } from '../../../lib/engine/prefilter/resourceRequest.js';
import { amountsByKind, ResourceFit } from '../../../lib/engine/prefilter/resources.js';
import type { HostState } from '../../../lib/model/hostState.js';
import { makeConfig } from '../../helpers/factories.js';
import { computeHost } from './helpers.js';

const ratio = fc.constantFrom(null, 0.7, 1, 1.1, 1.5, 16);
const hostInput = fc.record({
  vcpus_total: fc.constantFrom(0, 3, 16, 96),
  vcpus_used: fc.integer({ min: 0, max: 200 }),
  cpu_allocation_ratio: ratio,
  total_usable_ram_mb: fc.constantFrom(0, 1000, 16384),
  free_ram_mb: fc.integer({ min: -2000, max: 20000 }),
  ram_allocation_ratio: ratio,
  total_usable_disk_gb: fc.constantFrom(0, 7, 100),
  disk_mb_used: fc.integer({ min: 0, max: 150 * 1024 }),
  disk_allocation_ratio: ratio,
});
const configInput = fc.record({
  reserved_host_cpus: fc.constantFrom(0, 1, 2),
  reserved_host_memory_mb: fc.constantFrom(0, 512, 1500),
  reserved_host_disk_mb: fc.constantFrom(0, 1000, 3000),
  cpu_allocation_ratio: fc.constantFrom(null, 1.3),
  initial_ram_allocation_ratio: fc.constantFrom(1, 1.1),
});

/** The largest amount up to `bound` that fits, by asking Placement's exact check of every amount (0: none fits). */
function bruteForce(fit: ResourceFit, kind: number, host: HostState, bound: number): number {
  let best = 0;
  for (let n = 1; n <= bound; n++)
    if (fit.misfit(host, [{ rc: String(kind), kind, amount: n, stage: 'Placement' }]) === null) best = n;
  return best;
}

describe('fit limits', () => {
  it('hold, per host and class, the largest whole amount that fits', () => {
    fc.assert(
      fc.property(fc.array(hostInput, { minLength: 1, maxLength: 6 }), configInput, (inputs, d) => {
        // Prepare
        const hosts = inputs.map((h, i) => computeHost({ ...h, host: `h${i}` }));
        const fit = new ResourceFit(makeConfig({ DEFAULT: d }));
        // Act
        const limits = new FitLimitTable(hosts, fit).all();
        // Assess
        hosts.forEach((host, i) => {
          expect(limits.vcpu[i]).toBe(bruteForce(fit, VCPU, host, 2000));
          expect(limits.ram[i]).toBe(bruteForce(fit, MEMORY_MB, host, 40000));
          expect(limits.disk[i]).toBe(bruteForce(fit, DISK_GB, host, 2000));
        });
      }),
      { numRuns: 60 },
    );
  });

  it('caps a limit at MAX_LIMIT when every representable amount fits', () => {
    // Prepare
    // Beyond what a report may carry (lib/model/bounds.ts), so set past the schema: the engine caps anyway.
    const hosts = [{ ...computeHost({ cpu_allocation_ratio: 1 }), vcpus_total: 2 ** 40 }];
    // Act
    const limits = new FitLimitTable(hosts, new ResourceFit(makeConfig())).all();
    // Assess
    expect(limits.vcpu[0]).toBe(MAX_LIMIT);
  });

  it.each([
    ['disabled', { service: { disabled: true, up: true } }, 1],
    ['not ready (no RAM and no vCPUs)', { total_usable_ram_mb: 0, vcpus_total: 0 }, 1],
    ['ready and enabled', {}, 0],
  ])('marks a %s host as blocked or not', (_case, input, expected) => {
    // Prepare
    const hosts = [computeHost(input)];
    // Act
    const limits = new FitLimitTable(hosts, new ResourceFit(makeConfig())).all();
    // Assess
    expect(limits.blocked[0]).toBe(expected);
  });

  it.each([
    ['whole amounts', [4, 2048, 10], true],
    ['nothing requested', [0, 0, 0], true],
    ['a fractional amount', [4, 1000.5, 10], false],
    ['an amount above MAX_LIMIT', [2 ** 31, 1, 1], false],
  ])('apply to %s: %s', (_case, [vcpu, ram, disk], expected) => {
    // Prepare
    const amounts = amountsByKind([
      { rc: 'VCPU', amount: vcpu, kind: VCPU, stage: 's' },
      { rc: 'MEMORY_MB', amount: ram, kind: MEMORY_MB, stage: 's' },
      { rc: 'DISK_GB', amount: disk, kind: DISK_GB, stage: 's' },
    ]);
    // Act + Assess
    expect(limitsApply(amounts)).toBe(expected);
  });

  it('collect the hosts whose membership passes and that fit, in fleet order', () => {
    // Prepare
    const hosts = [
      computeHost({ host: 'fits' }),
      computeHost({ host: 'other-membership' }),
      computeHost({ host: 'full', free_ram_mb: 100 }),
      computeHost({ host: 'disabled', service: { disabled: true, up: true } }),
      computeHost({ host: 'fits-too' }),
    ];
    const limits = new FitLimitTable(hosts, new ResourceFit(makeConfig())).all();
    const amounts = amountsByKind([{ rc: 'MEMORY_MB', amount: 1024, kind: MEMORY_MB, stage: 's' }]);
    const out = new Int32Array(hosts.length);
    // Act
    // (the members: every host but 'other-membership')
    const n = collectFitting(out, limits, amounts, Int32Array.from([0, 2, 3, 4]));
    // Assess
    expect(Array.from(out.subarray(0, n), (i) => hosts[i].host)).toEqual(['fits', 'fits-too']);
  });

  it("decide a first collect from the hosts' fields, later ones from every host's limits, alike", () => {
    // Prepare
    const hosts = [
      computeHost({ host: 'fits' }),
      computeHost({ host: 'full', free_ram_mb: 100 }),
      computeHost({ host: 'disabled', service: { disabled: true, up: true } }),
      computeHost({ host: 'not-ready', total_usable_ram_mb: 0, vcpus_total: 0 }),
      computeHost({ host: 'no-vcpus', vcpus_used: 10_000 }),
      computeHost({ host: 'fits-too' }),
    ];
    const fit = new ResourceFit(makeConfig());
    const table = new FitLimitTable(hosts, fit);
    const amounts = amountsByKind([
      { rc: 'VCPU', amount: 2, kind: VCPU, stage: 's' },
      { rc: 'MEMORY_MB', amount: 1024, kind: MEMORY_MB, stage: 's' },
    ]);
    const names = (out: Int32Array, n: number) => Array.from(out.subarray(0, n), (i) => hosts[i].host);
    const out = new Int32Array(hosts.length);
    // Act
    const byFields = names(out, table.collect(out, amounts, null));
    const unwritten = table.of(0).ram[5];
    const byLimits = names(out, table.collect(out, amounts, null));
    // Assess
    expect(byFields).toEqual(['fits', 'fits-too']);
    expect(unwritten).toBe(0);
    expect(byLimits).toEqual(byFields);
    expect(Array.from(table.of(0).ram)).toEqual(Array.from(new FitLimitTable(hosts, fit).all().ram));
  });

  it("write one host's limits when it alone is asked for", () => {
    // Prepare
    const hosts = [computeHost({ host: 'a' }), computeHost({ host: 'b', vcpus_used: 7 })];
    const fit = new ResourceFit(makeConfig());
    const whole = new FitLimitTable(hosts, fit).all();
    // Act
    const limits = new FitLimitTable(hosts, fit).of(1);
    // Assess
    expect([limits.vcpu[1], limits.ram[1], limits.disk[1]]).toEqual([
      whole.vcpu[1],
      whole.ram[1],
      whole.disk[1],
    ]);
    expect([limits.vcpu[0], limits.ram[0], limits.disk[0]]).toEqual([0, 0, 0]);
  });
});
