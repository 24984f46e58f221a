import { describe, expect, it } from 'vitest';
import { ALL_ZERO } from '../../lib/engine/weigher.js';
import type { MoveContext } from '../../lib/rebalance/moveContext.js';
import { PredictedStealWeigher } from '../../lib/rebalance/PredictedStealWeigher.js';
import { createPlannerScheduler, plannerConfig } from '../../lib/rebalance/plannerScheduler.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../helpers/factories.js';

describe('plannerConfig', () => {
  it("keeps the operator's filters between Placid's move filters, and adds the server-group filters", () => {
    // Prepare
    const config = makeConfig({
      filter_scheduler: { enabled_filters: ['ComputeFilter'], available_filters: ['ComputeFilter'] },
    });
    // Act
    const planned = plannerConfig(config);
    // Assess
    expect(planned.filter_scheduler.enabled_filters).toEqual([
      'SameAvailabilityZoneFilter',
      'ComputeFilter',
      'ServerGroupAntiAffinityFilter',
      'ServerGroupAffinityFilter',
      'HostStealFilter',
      'RoleSpreadFilter',
    ]);
    expect(createPlannerScheduler(config).filters.map((f) => f.name)).toHaveLength(6);
  });

  it('chooses deterministically, always checks capacity, and weighs by predicted steal then RAM', () => {
    // Prepare
    const config = makeConfig({
      filter_scheduler: { host_subset_size: 3 },
      placid: { placement_prefilter: false },
    });
    // Act
    const planned = plannerConfig(config);
    // Assess
    expect(planned.filter_scheduler).toMatchObject({
      host_subset_size: 1,
      shuffle_best_same_weighed_hosts: false,
      weight_classes: ['PredictedStealWeigher', 'RAMWeigher'],
    });
    expect(planned.placid).toEqual({ placement_prefilter: true, seed: 0, nova_release: null });
    expect(config.filter_scheduler.host_subset_size).toBe(3);
  });
});

describe('PredictedStealWeigher', () => {
  const move = (loads: Record<string, { capacityVcpus: number; demandVcpus: number }>): MoveContext => ({
    vm: { uuid: 'vm', availabilityZone: 'az1', role: null, demandVcpus: 4 },
    limits: { hostStealThresholdPercent: 5, maxSameRolePerHost: 2 },
    fleet: { load: (h) => loads[h], contended: () => false, roleCounts: () => new Map() },
  });

  it.each([
    ['the CPU share left free after the move', { host1: { capacityVcpus: 16, demandVcpus: 4 } }, 0.5],
    [
      'a negative weight when the move oversubscribes',
      { host1: { capacityVcpus: 16, demandVcpus: 16 } },
      -0.25,
    ],
    ['the lowest weight without a known steal', {}, -1],
  ])('weighs %s', (_case, loads, weight) => {
    // Prepare
    const context = move(loads);
    // Act
    const raw = PredictedStealWeigher.weigh(makeHost(), makeSpec(), context, makeContext());
    // Assess
    expect(raw).toBe(weight);
  });

  it('adds nothing to requests that are not planned moves', () => {
    // Act
    const state = PredictedStealWeigher.prepare?.(makeSpec(), makeContext());
    // Assess
    expect(state).toBe(ALL_ZERO);
  });
});
