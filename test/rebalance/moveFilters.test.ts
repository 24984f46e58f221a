import { describe, expect, it } from 'vitest';
import { PASS, PASS_ALL, rejectionMessage } from '../../lib/engine/filter.js';
import { resolveFilters } from '../../lib/engine/registry.js';
import {
  HostStealFilter,
  PLACID_FILTERS,
  RoleSpreadFilter,
  SameAvailabilityZoneFilter,
  withPlacidFilters,
} from '../../lib/rebalance/filters/index.js';
import type { MoveContext, PlannedFleetView } from '../../lib/rebalance/moveContext.js';
import type { HostLoad } from '../../lib/rebalance/stealModel.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../helpers/factories.js';

/** A fleet view from plain tables. */
function view(
  loads: Record<string, HostLoad>,
  roles: Record<string, Record<string, number>> = {},
  contended: string[] = [],
): PlannedFleetView {
  return {
    load: (host) => loads[host],
    contended: (host) => contended.includes(host),
    roleCounts: (role) => new Map(Object.entries(roles[role] ?? {})),
  };
}

function moveSpec(fleet: PlannedFleetView, vm: Partial<MoveContext['vm']> = {}) {
  const placid: MoveContext = {
    vm: { uuid: 'vm-1', availabilityZone: 'az1', role: 'web', demandVcpus: 4, ...vm },
    limits: { hostStealThresholdPercent: 5, maxSameRolePerHost: 2 },
    fleet,
  };
  return { ...makeSpec(), placid };
}

const ctx = makeContext();
const calm = view({ host1: { capacityVcpus: 16, demandVcpus: 8 } });

describe("Placid's move filters", () => {
  it.each([
    ['SameAvailabilityZoneFilter', SameAvailabilityZoneFilter],
    ['HostStealFilter', HostStealFilter],
    ['RoleSpreadFilter', RoleSpreadFilter],
  ])('%s passes every host for a request that is not a planned move', (_name, filter) => {
    // Act
    const state = filter.prepare?.(makeSpec(), ctx);
    // Assess
    expect(state).toBe(PASS_ALL);
  });

  it('are registered under their names and resolve from enabled_filters beside the planner', () => {
    // Prepare
    const config = makeConfig({
      filter_scheduler: {
        enabled_filters: ['SameAvailabilityZoneFilter', 'HostStealFilter', 'RoleSpreadFilter'],
      },
    });
    // Act
    const filters = resolveFilters(config, withPlacidFilters());
    // Assess
    expect(filters.map((f) => f.name)).toEqual([
      'SameAvailabilityZoneFilter',
      'HostStealFilter',
      'RoleSpreadFilter',
    ]);
    expect(PLACID_FILTERS.map((f) => f.name)).toEqual(
      expect.arrayContaining(['HostStealFilter', 'RoleSpreadFilter']),
    );
  });
});

describe('SameAvailabilityZoneFilter', () => {
  it.each([
    ['a host of the VM zone passes', 'az1', true],
    ['a host of another zone fails', 'az2', false],
  ])('%s', (_case, zone, passes) => {
    // Prepare
    const host = makeHost({ aggregates: [{ name: zone, metadata: { availability_zone: zone } }] });
    const spec = moveSpec(calm);
    const state = SameAvailabilityZoneFilter.prepare?.(spec, ctx) as string;
    // Act
    const result = SameAvailabilityZoneFilter.check(host, spec, state, ctx) === PASS;
    // Assess
    expect(result).toBe(passes);
  });

  it('explains the zones of a refused host', () => {
    // Prepare
    const host = makeHost({ availability_zone: 'az2' });
    const spec = moveSpec(calm);
    // Act
    const text = rejectionMessage(SameAvailabilityZoneFilter, host, spec, 'az1', ctx);
    // Assess
    expect(text).toBe('host is in availability zone az2; the VM stays in az1');
  });
});

describe('HostStealFilter', () => {
  it.each([
    ['predicted steal stays at 0 when the demand fits', { capacityVcpus: 16, demandVcpus: 8 }, [], true],
    ['predicted steal would exceed the threshold', { capacityVcpus: 16, demandVcpus: 14 }, [], false],
    ['the host is being relieved', { capacityVcpus: 16, demandVcpus: 2 }, ['host1'], false],
    ['the host steal is unknown', undefined, [], false],
  ] as const)('decides by the steal model: %s', (_case, load, contended, passes) => {
    // Prepare
    const fleet = view(load ? { host1: load } : {}, {}, [...contended]);
    const spec = moveSpec(fleet);
    const state = HostStealFilter.prepare?.(spec, ctx) as MoveContext;
    // Act
    const result = HostStealFilter.check(makeHost(), spec, state, ctx) === PASS;
    // Assess
    expect(result).toBe(passes);
  });

  it('explains the predicted steal against the threshold', () => {
    // Prepare: 14 + 4 = 18 vCPUs of demand on 16: 11.1 % lost.
    const fleet = view({ host1: { capacityVcpus: 16, demandVcpus: 14 } });
    const spec = moveSpec(fleet);
    // Act
    const text = rejectionMessage(HostStealFilter, makeHost(), spec, spec.placid, ctx);
    // Assess
    expect(text).toBe(
      'predicted steal 11.1% after the move (demand 18.0 of 16.0 vCPUs it can deliver), above host_steal_threshold_percent 5%',
    );
  });
});

describe('RoleSpreadFilter', () => {
  it.each([
    ['fewer VMs of the role than the limit', 1, true],
    ['as many VMs of the role as the limit', 2, false],
  ])('with %s on the host, passes: %s', (_case, count, passes) => {
    // Prepare: another host at the limit keeps the filter active.
    const fleet = view({}, { web: { host1: count, other: 2 } });
    const spec = moveSpec(fleet);
    const state = RoleSpreadFilter.prepare?.(spec, ctx) as Parameters<typeof RoleSpreadFilter.check>[2];
    // Act
    const result = RoleSpreadFilter.check(makeHost(), spec, state, ctx) === PASS;
    // Assess
    expect(result).toBe(passes);
  });

  it.each([
    ['the VM has no role', { role: null }, {}],
    ['no host is at the limit', {}, { web: { host1: 1 } }],
  ])('passes every host when %s', (_case, vm, roles) => {
    // Act
    const state = RoleSpreadFilter.prepare?.(moveSpec(view({}, roles), vm), ctx);
    // Assess
    expect(state).toBe(PASS_ALL);
  });
});
