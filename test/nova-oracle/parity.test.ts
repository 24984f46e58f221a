import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOVA_FILTERS } from '../../lib/engine/filters/index.js';
import { NOVA_WEIGHERS } from '../../lib/engine/weighers/index.js';
import { generalCase, numaPciCase } from './arbitraries.js';
import type { OracleCase } from './case.js';
import { differences, Tally } from './compare.js';
import { NovaOracle } from './oracleProcess.js';
import { placidAnswer } from './placidSide.js';

/**
 * Differential test: Nova 26's own filters and weighers (python3-nova, run by oracle.py) and
 * Placid's engine answer the same generated cases; verdicts must match exactly and weights to 1e-6.
 * fast-check prints the seed and the shrunk case on failure (replay with FC_SEED / FC_PATH).
 */

/** Nova 26's resource filters are gone (removed in Nova 19/20); newer weighers came after Zed. */
const NOT_IN_NOVA_26 = {
  filters: [
    'AggregateCoreFilter',
    'AggregateDiskFilter',
    'AggregateRamFilter',
    'CoreFilter',
    'DiskFilter',
    'RamFilter',
  ],
  weighers: ['HypervisorVersionWeigher', 'ImagePropertiesWeigher', 'NumInstancesWeigher'],
};
const NUMA_PCI = ['NUMATopologyFilter', 'PciPassthroughFilter'];
const runs = (n: number) => ({
  numRuns: n,
  seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined,
});

let oracle: NovaOracle;
beforeAll(async () => {
  // Fails the file with NovaUnavailableError (what to install) when python3-nova is missing.
  oracle = await NovaOracle.start();
});
afterAll(() => oracle?.close());

async function agree(c: Omit<OracleCase, 'id'>, tally?: Tally): Promise<void> {
  const nova = await oracle.ask(c);
  const full = { ...c, id: nova.id };
  const diffs = differences(full, nova, placidAnswer(full));
  tally?.add(nova, diffs, c.hosts.length);
  expect(diffs).toEqual([]);
}

describe('Placid against real Nova 26 (python3-nova)', () => {
  it('has every filter and weigher Nova 26 has, and only the documented others', () => {
    const filters = Object.keys(NOVA_FILTERS).filter((f) => !NOT_IN_NOVA_26.filters.includes(f));
    const weighers = Object.keys(NOVA_WEIGHERS).filter((w) => !NOT_IN_NOVA_26.weighers.includes(w));
    expect(filters.sort()).toEqual([...oracle.hello.filters].sort());
    expect(weighers.sort()).toEqual([...oracle.hello.weighers].sort());
    expect(oracle.hello.nova).toMatch(/^26\./);
  });

  it('agrees with every Nova filter and weigher on generated hosts, requests and configs', async () => {
    const tally = new Tally();
    const filters = oracle.hello.filters.filter((f) => !NUMA_PCI.includes(f));
    await fc.assert(
      fc.asyncProperty(generalCase(filters, oracle.hello.weighers), (c) => agree(c, tally)),
      runs(800),
    );
    console.info('Nova 26 agreement (per host verdict or weight):', tally.rates());
  });

  it('agrees on NUMA and PCI fitting (nova.virt.hardware and PciDeviceStats)', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(numaPciCase(NUMA_PCI, ['PCIWeigher']), (c) => agree(c, tally)),
      runs(400),
    );
    console.info('Nova 26 NUMA/PCI agreement:', tally.rates());
  });
});
