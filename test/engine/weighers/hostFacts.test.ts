import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PluginError } from '../../../lib/engine/errors.js';
import type { HostWeigher } from '../../../lib/engine/weigher.js';
import { isFactWeigher } from '../../../lib/engine/weighers/hostFacts.js';
import { NOVA_WEIGHERS } from '../../../lib/engine/weighers/index.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { weighList } from '../../helpers/engineRuns.js';
import { makeConfig, makeContext, makeSpec } from '../../helpers/factories.js';
import { hostsWith } from './weigh.js';

const FACT_WEIGHERS = Object.values(NOVA_WEIGHERS).filter(isFactWeigher);

const pools = (counts: number[]) => ({
  pools: counts.map((count, i) => ({ vendor_id: '8086', product_id: `15${i}`, count })),
});

const override = (key: string) =>
  fc.constantFrom(undefined, '2', '-1', '0.5', 'not-a-number').map((value) => ({ key, value }));

/** Hosts whose fields vary across everything the fact weighers read, with aggregate multiplier overrides. */
const hostInput: fc.Arbitrary<Partial<HostStateInput>> = fc
  .record({
    free_ram_mb: fc.integer({ min: -4096, max: 1 << 20 }),
    free_disk_mb: fc.double({ min: -1e6, max: 1e7, noNaN: true }),
    vcpus_total: fc.integer({ min: 0, max: 256 }),
    vcpus_used: fc.integer({ min: 0, max: 512 }),
    cpu_allocation_ratio: fc.constantFrom(null, 1, 1.5, 16),
    num_io_ops: fc.nat(20),
    num_instances: fc.nat(50),
    failed_builds: fc.nat(5),
    hypervisor_version: fc.constantFrom(null, 0, 6000000, 8002000),
    pci: fc.option(fc.array(fc.nat(120), { maxLength: 3 }), { nil: null }),
    ram: override('ram_weight_multiplier'),
    cpu: override('cpu_weight_multiplier'),
  })
  .map(({ pci, ram, cpu, ...fields }) => {
    const metadata: Record<string, string> = {};
    if (ram.value !== undefined) metadata[ram.key] = ram.value;
    if (cpu.value !== undefined) metadata[cpu.key] = cpu.value;
    return {
      ...fields,
      pci_stats: pci === null ? null : pools(pci),
      aggregates: Object.keys(metadata).length > 0 ? [{ name: 'overrides', metadata }] : [],
    };
  });

const configs = fc.record({
  cpu_allocation_ratio: fc.constantFrom(null, 2),
  multiplier: fc.constantFrom(-2, 0, 1, 1.5),
});

/** The same weigher without its fact, so the engine weighs it host by host. */
function hostByHost(weigher: HostWeigher<unknown>): HostWeigher<unknown> {
  const { fact: _fact, ...rest } = weigher as HostWeigher<unknown> & { fact?: string };
  return rest;
}

describe('host facts', () => {
  it('gives the engine bit-for-bit the weights of weighing host by host', () => {
    fc.assert(
      fc.property(fc.array(hostInput, { minLength: 2, maxLength: 8 }), configs, (inputs, c) => {
        // Prepare
        const hosts = hostsWith(inputs);
        const config = makeConfig({
          DEFAULT: { cpu_allocation_ratio: c.cpu_allocation_ratio },
          filter_scheduler: {
            num_instances_weight_multiplier: c.multiplier,
            io_ops_weight_multiplier: c.multiplier,
          },
        });
        const ctx = makeContext(config, hosts);
        // Act
        const gathered = weighList(FACT_WEIGHERS, hosts, makeSpec(), ctx);
        const oneByOne = weighList(FACT_WEIGHERS.map(hostByHost), hosts, makeSpec(), ctx);
        // Assess
        expect(Array.from(gathered)).toEqual(Array.from(oneByOne));
      }),
      { numRuns: 60 },
    );
  });

  it('names the weigher and the host when a host cannot be read', () => {
    // Prepare
    const hosts = hostsWith([{}, {}]);
    const broken = { ...hosts[1], pci_stats: { pools: [null] } } as unknown as (typeof hosts)[number];
    const list = [hosts[0], broken];
    const weigh = () => weighList(FACT_WEIGHERS, list, makeSpec(), makeContext(makeConfig(), list));
    // Act + Assess
    expect(weigh).toThrow(PluginError);
    expect(weigh).toThrow(/PCIWeigher.*failed on host h1/);
  });
});
