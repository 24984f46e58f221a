/** The world's steal against the proportional-share model the planner predicts with. */
import { describe, expect, it } from 'vitest';
import { predictedStealPercent } from '../../lib/rebalance/stealModel.js';
import { guestSteal } from '../../lib/rebalance/vmSteal.js';
import type { Layout, SimVm } from '../../lib/sim/layout.js';
import type { NoisyPlan } from '../../lib/sim/noisySchedule.js';
import { parseScenario } from '../../lib/sim/scenario.js';
import { World } from '../../lib/sim/world.js';

const FLAT = parseScenario({ demand_noise: 0, load_curve: [{ at: '00:00', level: 1 }] });

/** Two hosts of `hostVcpus`; VMs as [vcpus, utilisation, host]. */
function world(hostVcpus: number, vms: Array<[number, number, number]>, noisy: NoisyPlan[] = []): World {
  const layout: Layout = {
    hosts: [0, 1].map((index) => ({
      index,
      name: `cmp-${index}`,
      zone: 'az1',
      vcpus: hostVcpus,
      ramMb: 1e6,
      diskGb: 1e4,
    })),
    vms: vms.map(
      ([vcpus, utilisation, host], index): SimVm => ({
        index,
        uuid: `vm-${index}`,
        name: `web-01-${index}`,
        kind: 'web',
        role: 'web-01',
        flavor: { name: 'f', vcpus, ram_mb: 1024, disk_gb: 10 },
        zone: 'az1',
        host,
        localDisk: false,
        kubernetesNode: null,
        consul: null,
        utilisation,
      }),
    ),
  };
  return new World(layout, FLAT, noisy, new Uint16Array(60));
}

describe('the world', () => {
  it.each([
    [
      'under capacity',
      16,
      [
        [8, 0.5, 0],
        [8, 0.25, 0],
      ] as Array<[number, number, number]>,
    ],
    [
      'at capacity',
      8,
      [
        [8, 0.5, 0],
        [8, 0.5, 0],
      ] as Array<[number, number, number]>,
    ],
    [
      'over capacity',
      8,
      [
        [8, 0.75, 0],
        [8, 0.75, 0],
      ] as Array<[number, number, number]>,
    ],
    [
      'over capacity, unequal VMs',
      10,
      [
        [8, 1, 0],
        [4, 0.5, 0],
        [2, 0.5, 0],
      ] as Array<[number, number, number]>,
    ],
  ])('gives every VM the steal of the proportional-share model %s', (_case, capacity, vms) => {
    const w = world(capacity, vms);
    w.step(0);
    const demand = vms.reduce((n, [vcpus, u]) => n + vcpus * u, 0);
    const lost = predictedStealPercent(demand, capacity);
    vms.forEach(([vcpus, u], i) => {
      const expected = guestSteal({ demandVcpus: vcpus * u, vcpus, lostPercent: lost }, lost);
      expect(w.steal[i]).toBeCloseTo(expected, 9);
      expect(w.cpu[i]).toBeCloseTo((vcpus * u * (1 - lost / 100) * 100) / vcpus, 9);
    });
  });

  it('loses 1/3 of demand on a host asked for 12 vCPUs out of 8: 25 % guest steal at 75 % use', () => {
    const w = world(8, [
      [8, 0.75, 0],
      [8, 0.75, 0],
    ]);
    w.step(0);
    expect([w.hostLost[0], w.steal[0], w.cpu[0]].map((v) => Number(v.toFixed(6)))).toEqual([
      0.333333, 25, 50,
    ]);
  });

  it('moves the steal with the VM: the busy host recovers, the other takes the load', () => {
    const w = world(8, [
      [8, 0.75, 0],
      [8, 0.75, 0],
    ]);
    w.move(1, 1);
    w.step(0);
    expect([w.steal[0], w.steal[1], w.hostDemand[1]]).toEqual([0, 0, 6]);
  });

  it('raises load5 above one per vCPU when work is delayed', () => {
    const w = world(8, [
      [8, 0.9, 0],
      [8, 0.9, 0],
    ]);
    for (let m = 0; m < 30; m++) w.step(m);
    // Runnable = demand / (1 - lost) = 7.2 / (8/14.4) = 12.96 on 8 vCPUs.
    expect(w.load5[0] / 8).toBeCloseTo(1.62, 2);
  });

  it('runs a noisy neighbour flat out while it is noisy, and as usual before and after', () => {
    const noisy: NoisyPlan[] = [{ vm: 0, startMinute: 2, duration: 3, pattern: 'steady', demand: 1 }];
    const w = world(32, [[8, 0.25, 0]], noisy);
    const demand = Array.from({ length: 7 }, (_, m) => {
      w.step(m);
      return w.demand[0];
    });
    expect(demand).toEqual([2, 2, 8, 8, 8, 2, 2]);
  });
});
