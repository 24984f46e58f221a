import { describe, expect, it } from 'vitest';
import type { SchedulerConfig } from '../../../lib/config/options.js';
import type { HostWeigher } from '../../../lib/engine/weigher.js';
import { BuildFailureWeigher } from '../../../lib/engine/weighers/BuildFailureWeigher.js';
import { CPUWeigher } from '../../../lib/engine/weighers/CPUWeigher.js';
import { CrossCellWeigher } from '../../../lib/engine/weighers/CrossCellWeigher.js';
import { DiskWeigher } from '../../../lib/engine/weighers/DiskWeigher.js';
import { HypervisorVersionWeigher } from '../../../lib/engine/weighers/HypervisorVersionWeigher.js';
import { ImagePropertiesWeigher } from '../../../lib/engine/weighers/ImagePropertiesWeigher.js';
import { IoOpsWeigher } from '../../../lib/engine/weighers/IoOpsWeigher.js';
import { MetricsWeigher } from '../../../lib/engine/weighers/MetricsWeigher.js';
import { NumInstancesWeigher } from '../../../lib/engine/weighers/NumInstancesWeigher.js';
import { PCIWeigher } from '../../../lib/engine/weighers/PCIWeigher.js';
import { RAMWeigher } from '../../../lib/engine/weighers/RAMWeigher.js';
import { ServerGroupSoftAffinityWeigher } from '../../../lib/engine/weighers/ServerGroupSoftAffinityWeigher.js';
import { ServerGroupSoftAntiAffinityWeigher } from '../../../lib/engine/weighers/ServerGroupSoftAntiAffinityWeigher.js';
import { makeConfig, makeContext, makeHost } from '../../helpers/factories.js';

type ConfigPatch = { [G in keyof SchedulerConfig]?: Partial<SchedulerConfig[G]> };
const fs = (option: keyof SchedulerConfig['filter_scheduler']) => (v: number) =>
  ({ filter_scheduler: { [option]: v } }) as ConfigPatch;

interface Row {
  weigher: HostWeigher<unknown>;
  configure: (value: number) => ConfigPatch;
  aggregateKey: string;
  novaDefault: number;
  /** -1 for BuildFailureWeigher, which negates whatever multiplier it resolves. */
  sign: number;
}

const row = (
  weigher: unknown,
  option: keyof SchedulerConfig['filter_scheduler'],
  novaDefault: number,
  sign = 1,
) => ({ weigher, configure: fs(option), aggregateKey: option, novaDefault, sign }) as Row;

// Nova's section 5 table: option, default, aggregate key.
const rows: Row[] = [
  row(RAMWeigher, 'ram_weight_multiplier', 1),
  row(CPUWeigher, 'cpu_weight_multiplier', 1),
  row(DiskWeigher, 'disk_weight_multiplier', 1),
  row(IoOpsWeigher, 'io_ops_weight_multiplier', -1),
  row(NumInstancesWeigher, 'num_instances_weight_multiplier', 0),
  row(HypervisorVersionWeigher, 'hypervisor_version_weight_multiplier', 1),
  row(BuildFailureWeigher, 'build_failure_weight_multiplier', 1_000_000, -1),
  row(CrossCellWeigher, 'cross_cell_move_weight_multiplier', 1_000_000),
  row(ServerGroupSoftAffinityWeigher, 'soft_affinity_weight_multiplier', 1),
  row(ServerGroupSoftAntiAffinityWeigher, 'soft_anti_affinity_weight_multiplier', 1),
  row(PCIWeigher, 'pci_weight_multiplier', 1),
  row(ImagePropertiesWeigher, 'image_props_weight_multiplier', 0),
  {
    weigher: MetricsWeigher as HostWeigher<unknown>,
    configure: (v) => ({ metrics: { weight_multiplier: v } }),
    aggregateKey: 'metrics_weight_multiplier',
    novaDefault: 1,
    sign: 1,
  },
];

function hostInAggregates(metadata: Record<string, string>[]) {
  return makeHost({ aggregates: metadata.map((md, i) => ({ name: `agg${i}`, metadata: md })) });
}

describe.each(rows.map((r) => [r.weigher.name, r] as const))('%s multiplier', (_name, r) => {
  it("defaults to Nova's value", () => {
    // Prepare
    const host = makeHost();
    // Act
    const m = r.weigher.multiplier(host, makeContext(makeConfig(), [host]));
    // Assess
    expect(m).toBe(r.sign * r.novaDefault);
  });

  it('uses the configured value when no aggregate sets the key', () => {
    const host = hostInAggregates([{ unrelated: '7' }]);
    const ctx = makeContext(makeConfig(r.configure(2.5)), [host]);
    expect(r.weigher.multiplier(host, ctx)).toBe(r.sign * 2.5);
  });

  it('takes the minimum over the aggregates that set the key (before any negation)', () => {
    const host = hostInAggregates([{ [r.aggregateKey]: '3' }, { [r.aggregateKey]: ' 0.5 ' }, {}]);
    const ctx = makeContext(makeConfig(r.configure(2.5)), [host]);
    expect(r.weigher.multiplier(host, ctx)).toBe(r.sign * 0.5);
  });

  it('falls back to the configured value when any aggregate value is unparsable', () => {
    const host = hostInAggregates([{ [r.aggregateKey]: '0.5' }, { [r.aggregateKey]: 'lots' }]);
    const ctx = makeContext(makeConfig(r.configure(2.5)), [host]);
    expect(r.weigher.multiplier(host, ctx)).toBe(r.sign * 2.5);
  });

  it.each([
    ['uniform when no aggregate in the fleet carries the key', 'unrelated', true],
    ['per host when some aggregate carries the key', r.aggregateKey, false],
  ])('is %s', (_case, key, uniform) => {
    const host = hostInAggregates([{ [key]: '2' }]);
    const ctx = makeContext(makeConfig(), [host, makeHost({ host: 'plain' })]);
    expect(r.weigher.uniformMultiplier?.(ctx)).toBe(uniform);
  });
});
