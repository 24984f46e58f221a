/**
 * Measures Placid's agreement with Nova 26 on many generated cases, without failing on the first
 * difference: `npx tsx test/nova-oracle/measure.ts [cases] [seed] [general|numa]`. Prints the rate
 * per filter and weigher and one example difference of each.
 */
import fc from 'fast-check';
import { generalCase, numaPciCase } from './arbitraries.js';
import { differences, Tally } from './compare.js';
import { NovaOracle } from './oracleProcess.js';
import { placidAnswer } from './placidSide.js';

const NUMA_PCI = ['NUMATopologyFilter', 'PciPassthroughFilter'];

async function main(): Promise<void> {
  const [count = '1000', seed = '1', kind = 'general'] = process.argv.slice(2);
  const oracle = await NovaOracle.start();
  try {
    const arbitrary =
      kind === 'numa'
        ? numaPciCase(NUMA_PCI, ['PCIWeigher'])
        : generalCase(
            oracle.hello.filters.filter((f) => !NUMA_PCI.includes(f)),
            oracle.hello.weighers,
          );
    const cases = fc.sample(arbitrary, { numRuns: Number(count), seed: Number(seed) });
    const answers = await oracle.askAll(cases);
    const tally = new Tally();
    const examples = new Map<string, unknown>();
    cases.forEach((c, i) => {
      const full = { ...c, id: answers[i].id };
      const diffs = differences(full, answers[i], placidAnswer(full));
      tally.add(answers[i], diffs, c.hosts.length);
      for (const d of diffs) if (!examples.has(d.plugin)) examples.set(d.plugin, { ...d, case: full });
    });
    console.log(
      JSON.stringify(
        { nova: oracle.hello.nova, kind, cases: cases.length, seed, rates: tally.rates() },
        null,
        2,
      ),
    );
    for (const [plugin, example] of examples) console.log(plugin, JSON.stringify(example));
  } finally {
    oracle.close();
  }
}

await main();
