/**
 * Hard constraints on every plan, over random fleets and settings: capacity, zone, role limit,
 * anti-affinity, concurrency and link bandwidth per wave, cooldown, ping-pong, blackout, expiry,
 * block migrations, minimum benefit, a reason for every suffering VM, and a lower bound never above
 * what the plan moves from the hosts it covers (planChecks.ts).
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { parseBlackoutWindow } from '../../lib/rebalance/blackout.js';
import type { FleetInput } from '../../lib/rebalance/fleetInput.js';
import { planRebalance } from '../../lib/rebalance/planner.js';
import type { RebalanceSettings } from '../../lib/rebalance/settings.js';
import { minutesAgo, settingsWith } from './fixtures.js';
import { checkPlan } from './planChecks.js';
import { fleetOf, type HostSpec, type VmSpec } from './planFixtures.js';

const ROLES = ['web', 'api', 'db', null];
const GROUPS = ['g1', 'g2'];

const vmArb = (hot: boolean) =>
  fc.record({
    busy: hot
      ? fc.double({ min: 0.6, max: 1, noNaN: true })
      : fc.double({ min: 0.05, max: 0.6, noNaN: true }),
    load: fc.double({ min: 0.1, max: 2.5, noNaN: true }),
    vcpus: fc.constantFrom(1, 2, 4, 8),
    ramGib: fc.constantFrom(1, 2, 4, 8),
    rootGb: fc.constantFrom(10, 20, 80),
    shared: fc.boolean(),
    role: fc.constantFrom(...ROLES),
    group: fc.option(fc.constantFrom(...GROUPS), { nil: undefined }),
    movedMinutesAgo: fc.option(fc.integer({ min: 10, max: 3000 }), { nil: undefined }),
  });

/** A host and its VMs; a hot host is small and busy, so its VMs are likely to suffer. */
const hostArb = fc.boolean().chain((hot) =>
  fc.record({
    vcpus: hot ? fc.constantFrom(8, 12) : fc.constantFrom(16, 32),
    ramGib: fc.constantFrom(32, 64, 128),
    diskGb: fc.constantFrom(100, 500, 1000),
    az: fc.constantFrom('az1', 'az2'),
    vms: fc.array(vmArb(hot), { minLength: hot ? 3 : 0, maxLength: hot ? 7 : 4 }),
  }),
);

const fleetArb = fc
  .record({
    hosts: fc.array(hostArb, { minLength: 2, maxLength: 8 }),
    returnFrom: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 60, max: 3000 })), { maxLength: 6 }),
  })
  .filter(({ hosts }) => hosts.some((h) => h.vms.length > 0))
  .map(({ hosts, returnFrom }): FleetInput => {
    const hostSpecs: HostSpec[] = hosts.map(({ vms: _vms, ...h }, i) => ({ host: `h${i}`, ...h }));
    const vmSpecs: VmSpec[] = hosts.flatMap((h, i) =>
      h.vms.map((v, k) => ({
        uuid: `vm${i}-${k}`,
        host: `h${i}`,
        busy: v.busy,
        load: v.load,
        vcpus: v.vcpus,
        ramGib: v.ramGib,
        rootGb: v.rootGb,
        shared: v.shared,
        role: v.role,
        group: v.group ? { name: v.group, policy: 'anti-affinity' as const } : undefined,
        lastMigratedAt: v.movedMinutesAgo === undefined ? null : minutesAgo(v.movedMinutesAgo),
      })),
    );
    const history = returnFrom.map(([vm, host, ago]) => ({
      instance_uuid: vmSpecs[vm % vmSpecs.length].uuid,
      source_host: hostSpecs[host % hostSpecs.length].host,
      dest_host: vmSpecs[vm % vmSpecs.length].host,
      at: minutesAgo(ago),
    }));
    return fleetOf(hostSpecs, vmSpecs, { history });
  });

const settingsArb = fc
  .record({
    max_migrations_per_host: fc.integer({ min: 1, max: 2 }),
    max_concurrent_migrations: fc.integer({ min: 1, max: 5 }),
    max_migrations_per_az: fc.integer({ min: 1, max: 3 }),
    migration_bandwidth_mbps: fc.constantFrom(1000, 2500, 5000),
    link_bandwidth_mbps: fc.constantFrom(2500, 5000, 10000),
    max_same_role_per_host: fc.integer({ min: 1, max: 3 }),
    max_block_migration_gb: fc.constantFrom(0, 20, 100),
    min_benefit_percent: fc.constantFrom(0, 5, 10),
    plan_ttl_minutes: fc.constantFrom(2, 10, 30),
    cooldown_hours: fc.constantFrom(0.5, 2),
    mode: fc.constantFrom('recommend', 'approve', 'auto'),
    noisy_neighbour_moves: fc.boolean(),
    blackout: fc.constantFrom([], ['12:01-12:03'], ['11:00-12:00', '12:02-12:20'], ['12:05-13:00']),
  })
  .map(
    ({ blackout, ...s }): RebalanceSettings =>
      settingsWith({
        ...s,
        max_cooldown_hours: 48,
        blackout_windows: blackout.map(
          (w) => parseBlackoutWindow(w) as Exclude<ReturnType<typeof parseBlackoutWindow>, string>,
        ),
      }),
  );

describe('planRebalance: hard constraints on random fleets', () => {
  it('never breaks a hard constraint', async () => {
    await fc.assert(
      fc.asyncProperty(fleetArb, settingsArb, async (fleet, settings) => {
        const plan = await planRebalance({ fleet, settings });
        checkPlan(fleet, plan, settings);
      }),
      { numRuns: 100 },
    );
  });
});
