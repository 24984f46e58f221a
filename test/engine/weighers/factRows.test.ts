import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FACT_SLOT, FACT_WIDTH, gatherFactRows } from '../../../lib/engine/weighers/factRows.js';
import { isFactWeigher } from '../../../lib/engine/weighers/hostFacts.js';
import { NOVA_WEIGHERS } from '../../../lib/engine/weighers/index.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeConfig, makeContext, makeSpec } from '../../helpers/factories.js';
import { hostsWith } from './weigh.js';

const FACT_WEIGHERS = Object.values(NOVA_WEIGHERS).filter(isFactWeigher);

const hostInput: fc.Arbitrary<Partial<HostStateInput>> = fc.record({
  free_ram_mb: fc.integer({ min: -4096, max: 1 << 20 }),
  free_disk_mb: fc.double({ min: -1e6, max: 1e7, noNaN: true }),
  vcpus_total: fc.integer({ min: 0, max: 256 }),
  vcpus_used: fc.integer({ min: 0, max: 512 }),
  cpu_allocation_ratio: fc.constantFrom(null, 1, 1.5, 16),
  num_io_ops: fc.nat(20),
  num_instances: fc.nat(50),
  failed_builds: fc.nat(5),
  hypervisor_version: fc.constantFrom(null, 0, 8002000),
  pci_stats: fc.constantFrom(null, { pools: [{ vendor_id: '8086', product_id: '1520', count: 3 }] }),
});

describe('fact rows', () => {
  it('hold, for every fact weigher and host, exactly what its weigh() returns', () => {
    fc.assert(
      fc.property(
        fc.array(hostInput, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(null, 2),
        (inputs, cpuRatio) => {
          // Prepare
          const hosts = hostsWith(inputs);
          const config = makeConfig({ DEFAULT: { cpu_allocation_ratio: cpuRatio } });
          const ctx = makeContext(config, hosts);
          // Act
          const rows = gatherFactRows(hosts, config);
          // Assess
          for (const w of FACT_WEIGHERS) {
            const fromRows = hosts.map((_, i) => rows[i * FACT_WIDTH + FACT_SLOT[w.fact]]);
            expect(fromRows).toEqual(hosts.map((h) => w.weigh(h, makeSpec(), undefined, ctx)));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('give every fact its own slot within one row', () => {
    // Act
    const slots = Object.values(FACT_SLOT).sort();
    // Assess
    expect(slots).toEqual(Array.from({ length: FACT_WIDTH }, (_, i) => i));
  });
});
