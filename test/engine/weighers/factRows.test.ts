import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fleetIndex } from '../../../lib/engine/prefilter/fleetIndex.js';
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

  it('are written in the fleet index for the first candidates asked for, then for every host', () => {
    // Prepare
    const hosts = hostsWith([{ free_ram_mb: 1 }, { free_ram_mb: 2 }, { free_ram_mb: 3 }, { free_ram_mb: 4 }]);
    const config = makeConfig();
    const index = fleetIndex(hosts);
    const row = (rows: Float64Array, i: number) =>
      Array.from(rows.subarray(i * FACT_WIDTH, (i + 1) * FACT_WIDTH));
    // Act
    const first = index.factRows(config, { positions: Int32Array.from([1, 3]), count: 2 })!;
    const unread = row(first, 0);
    const second = index.factRows(config, { positions: Int32Array.from([1]), count: 1 })!;
    // Assess
    const all = gatherFactRows(hosts, config);
    expect(unread).toEqual(new Array(FACT_WIDTH).fill(0));
    expect(second).toBe(first);
    expect(Array.from(second)).toEqual(Array.from(all));
  });

  it("are none once a host's facts cannot be read", () => {
    // Prepare
    const hosts = hostsWith([{}, {}]);
    hosts[1] = { ...hosts[1], pci_stats: { pools: [null] } } as unknown as (typeof hosts)[1];
    const index = fleetIndex(hosts);
    const config = makeConfig();
    // Act
    const readable = index.factRows(config, { positions: Int32Array.from([0]), count: 1 });
    const unreadable = index.factRows(config, { positions: Int32Array.from([0, 1]), count: 2 });
    // Assess
    expect(readable).not.toBeNull();
    expect(unreadable).toBeNull();
  });
});
