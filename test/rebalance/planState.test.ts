import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../lib/config/options.js';
import { detect } from '../../lib/rebalance/detect.js';
import { hostObservation } from '../../lib/rebalance/fleetInput.js';
import { PlanState, STALE_LIMIT } from '../../lib/rebalance/planState.js';
import { makeSpec } from '../helpers/factories.js';
import { settingsWith } from './fixtures.js';
import { contendedFleet } from './planFixtures.js';

function stateOf() {
  const fleet = contendedFleet(['d1', 'd2']);
  const detection = detect(
    { now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances },
    settingsWith(),
  );
  const state = new PlanState(
    fleet.hypervisors.map((h) => h.state),
    detection.hosts,
    fleet.instances,
    defaultConfig(),
  );
  const web1 = fleet.instances.find((i) => i.uuid === 'web-1')!;
  const move = {
    vm: { ...web1, role: web1.role ?? null },
    demandVcpus: 3.6,
    source: 'src',
    dest: 'd1',
    spec: makeSpec({ flavor: { ...web1.flavor, name: 'f' } }),
  };
  return { state, move };
}

describe('PlanState', () => {
  it('moves capacity, CPU demand, role counts and location with a planned move', () => {
    // Prepare
    const { state, move } = stateOf();
    const before = { src: state.host('src')!, d1: state.host('d1')! };
    // Act
    state.apply(move);
    // Assess
    expect(state.host('d1')!.free_ram_mb).toBe(before.d1.free_ram_mb - 8192);
    expect(state.host('src')!.free_ram_mb).toBe(before.src.free_ram_mb + 8192);
    expect(Object.hasOwn(state.host('d1')!.instances, 'web-1')).toBe(true);
    expect(Object.hasOwn(state.host('src')!.instances, 'web-1')).toBe(false);
    expect(state.load('d1')!.demandVcpus).toBeCloseTo(0.8 + 3.6, 9);
    expect(state.load('src')!.demandVcpus).toBeCloseTo(18.4 - 3.6, 9);
    expect(state.roleCounts('web').get('d1')).toBe(1);
    expect(state.roleCounts('web').get('src')).toBe(2);
    expect(state.hostOf('web-1', 'src')).toBe('d1');
  });

  it('marks a relieved host as never a destination', () => {
    // Act
    const { state } = stateOf();
    // Assess
    expect(state.contended('src')).toBe(true);
    expect(state.contended('d1')).toBe(false);
  });

  it('keeps a Fleet until enough hosts changed, listing the changed ones as stale', () => {
    // Prepare
    const { state, move } = stateOf();
    const fleet = state.fleetOfCell(null);
    // Act
    state.apply(move);
    // Assess
    expect(state.fleetOfCell(null)).toBe(fleet);
    expect([...state.staleHosts(null)].sort()).toEqual(['d1', 'src']);
    expect(state.fleetOfCell(null, true)).not.toBe(fleet);
    expect(state.staleHosts(null).size).toBe(0);
    expect(STALE_LIMIT).toBeGreaterThan(2);
  });
});
