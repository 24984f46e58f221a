import { describe, expect, it } from 'vitest';
import { detect } from '../../lib/rebalance/detect.js';
import { hostObservation } from '../../lib/rebalance/fleetInput.js';
import { predictOutcome } from '../../lib/rebalance/outcome.js';
import type { VmDetection } from '../../lib/rebalance/types.js';
import { guestSteal, recoveryTarget, stealStaying, vmShare } from '../../lib/rebalance/vmSteal.js';
import { settingsWith } from './fixtures.js';
import { contendedFleet } from './planFixtures.js';

const SETTINGS = settingsWith();

function outcomeOf(moves: { instance_uuid: string; source_host: string; dest_host: string }[]) {
  const fleet = contendedFleet(['d1']);
  const detection = detect(
    { now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances },
    SETTINGS,
  );
  const vcpus = new Map(fleet.instances.map((i) => [i.uuid, i.flavor.vcpus]));
  return predictOutcome(detection, moves, (uuid) => vcpus.get(uuid), SETTINGS);
}

describe('predictOutcome', () => {
  it('predicts every suffering VM still suffers when nothing moves', () => {
    // Act
    const outcome = outcomeOf([]);
    // Assess
    expect(outcome.sufferingLeft.sort()).toEqual(['web-1', 'web-2', 'web-3']);
  });

  it('predicts the VMs that stay recover once enough demand left their host', () => {
    // Act
    const outcome = outcomeOf([{ instance_uuid: 'web-1', source_host: 'src', dest_host: 'd1' }]);
    // Assess
    expect(outcome.sufferingLeft).toEqual([]);
    expect(outcome.stealAfter.get('web-2')).toBeCloseTo(0, 9);
  });

  it('predicts a destination pushed into contention makes its busy VMs suffer', () => {
    // Act: the batch VM (7.6 vCPUs) and all three web VMs onto d1 (16 vCPUs, 0.8 used).
    const outcome = outcomeOf(
      ['batch-1', 'web-1', 'web-2', 'web-3'].map((uuid) => ({
        instance_uuid: uuid,
        source_host: 'src',
        dest_host: 'd1',
      })),
    );
    // Assess: d1 then holds 19.2 vCPUs of demand: the web VMs (load 1.5/vCPU) suffer again.
    expect(outcome.sufferingLeft.sort()).toEqual(['web-1', 'web-2', 'web-3']);
  });
});

describe('vmSteal', () => {
  const detection = { demandVcpus: 2, stolenVcpus: 0.4 } as VmDetection;
  const share = vmShare(detection, 4);

  it('reads the lost share of demand: 0.4 of 2 vCPUs is 20 %', () => {
    // Assess
    expect(share).toEqual({ demandVcpus: 2, vcpus: 4, lostPercent: 20 });
  });

  it.each([
    ['the guest sees the lost share times its utilisation', () => guestSteal(share!, 20), 10],
    ['a VM that stays follows its host', () => stealStaying(share!, 20, 10), 5],
    [
      'a VM losing more than its host keeps the excess',
      () => stealStaying({ ...share!, lostPercent: 30 }, 20, 0),
      5,
    ],
    ['the host share below which the VM recovers', () => recoveryTarget(share!, 20, 5), 10],
  ])('%s', (_case, compute, expected) => {
    // Act
    const value = compute();
    // Assess
    expect(value).toBeCloseTo(expected, 9);
  });

  it('has no share without demand data', () => {
    // Act
    const none = vmShare({ demandVcpus: null, stolenVcpus: null } as VmDetection, 4);
    // Assess
    expect(none).toBeNull();
  });
});
