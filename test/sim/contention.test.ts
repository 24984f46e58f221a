/** The unequal-share world: a contention model the planner does not predict with. */
import { describe, expect, it } from 'vitest';
import { unequalWeight, vmLostShare } from '../../lib/sim/contention.js';
import type { Layout, SimVm } from '../../lib/sim/layout.js';
import { renderSimulationText } from '../../lib/sim/report/text.js';
import { parseScenario } from '../../lib/sim/scenario.js';
import { World } from '../../lib/sim/world.js';
import { makeResult, makeScenario } from './report/fixtures.js';

/** One host of 8 vCPUs running a 1-vCPU and an 8-vCPU VM, both flat out: 9 vCPUs of demand. */
function saturated(model: 'proportional' | 'unequal'): World {
  const scenario = parseScenario({
    demand_noise: 0,
    load_curve: [{ at: '00:00', level: 1 }],
    contention_model: model,
  });
  const vm = (index: number, vcpus: number): SimVm => ({
    index,
    uuid: `vm-${index}`,
    name: `web-01-${index}`,
    kind: 'web',
    role: 'web-01',
    flavor: { name: 'f', vcpus, ram_mb: 1024, disk_gb: 10 },
    zone: 'az1',
    host: 0,
    localDisk: false,
    kubernetesNode: null,
    consul: null,
    utilisation: 1,
  });
  const layout: Layout = {
    hosts: [{ index: 0, name: 'cmp-0', zone: 'az1', vcpus: 8, ramMb: 1e6, diskGb: 1e4 }],
    vms: [vm(0, 1), vm(1, 8)],
  };
  const world = new World(layout, scenario, [], new Uint16Array(60));
  world.step(0);
  return world;
}

describe('contention models', () => {
  it('proportional: both VMs lose the same share, (D − C) / D', () => {
    const w = saturated('proportional');
    expect(w.steal[0]).toBeCloseTo((1 / 9) * 100, 6);
    expect(w.steal[1]).toBeCloseTo((1 / 9) * 100, 6);
  });

  it('unequal: the small VM loses a larger share, and the host still loses D − C in all', () => {
    const w = saturated('unequal');
    expect(w.steal[0]).toBeGreaterThan(w.steal[1]);
    const lostVcpus = (w.steal[0] / 100) * 1 + (w.steal[1] / 100) * 8;
    expect(lostVcpus).toBeCloseTo(9 - 8, 6);
  });

  it('caps a VM’s loss below all of its demand', () => {
    expect(vmLostShare('unequal', 0.9, 100, unequalWeight(1) * 1, 1)).toBe(0.95);
    expect(vmLostShare('proportional', 0.25, 100, 1, 1)).toBe(0.25);
  });

  it('is proportional unless a scenario asks otherwise, and refuses an unknown model', () => {
    expect(parseScenario({}).contentionModel).toBe('proportional');
    expect(() => parseScenario({ contention_model: 'smt' })).toThrow(/contention_model/);
  });

  it('is named in the report', () => {
    const text = renderSimulationText(
      makeResult({ scenario: makeScenario({ contention_model: 'unequal' }) }),
    );
    expect(text).toContain(
      'contention: unequal share (small VMs lose more; not the model the planner predicts with)',
    );
  });
});
