/**
 * Hard constraints every plan keeps, checked from the fleet and the plan alone (shared by the
 * property test and the host-metric variant test): capacity, zone, role limit, anti-affinity,
 * concurrency and link bandwidth per wave, cooldown, ping-pong, blackout, expiry, block
 * migrations, minimum benefit, a reason for every suffering VM, and the lower bound's promise.
 */
import { expect } from 'vitest';
import type { HostState } from '../../lib/model/hostState.js';
import type { Plan, PlannedMigration } from '../../lib/model/plan.js';
import { blackoutAt } from '../../lib/rebalance/blackout.js';
import { cooldownOf, recentSources } from '../../lib/rebalance/cooldown.js';
import { migrationRateMbps } from '../../lib/rebalance/cost.js';
import { detect } from '../../lib/rebalance/detect.js';
import { type FleetInput, hostObservation } from '../../lib/rebalance/fleetInput.js';
import type { RebalanceSettings } from '../../lib/rebalance/settings.js';
import { RESERVED_RAM_MB } from './planFixtures.js';

/** Every check below. */
export function checkPlan(fleet: FleetInput, plan: Plan, settings: RebalanceSettings): void {
  checkCapacity(fleet, plan);
  checkPlacementRules(fleet, plan, settings);
  checkWaves(plan, settings);
  checkTimeRules(fleet, plan, settings);
  checkReasons(fleet, plan, settings);
  checkLowerBound(plan);
}

/** The bound never exceeds what the plan moves from the hosts it covers (all relieved there). */
function checkLowerBound(plan: Plan): void {
  const covers = plan.summary.lower_bound_covers;
  expect(plan.summary.lower_bound_bytes).toBeLessThanOrEqual(covers.plan_bytes);
  expect(covers.plan_bytes).toBeLessThanOrEqual(plan.summary.bytes);
  if (covers.hosts.length === 0) expect(plan.summary.lower_bound_bytes).toBe(0);
}

/**
 * Placement's rule on every destination after all moves: a resource the moves add to stays within
 * (total - reserved) × ratio (a host already over it before the plan may stay there, not grow).
 */
function checkCapacity(fleet: FleetInput, plan: Plan): void {
  const vm = (uuid: string) => fleet.instances.find((i) => i.uuid === uuid)!;
  const usage = (s: HostState) => ({
    vcpus: s.vcpus_used,
    ramMb: s.total_usable_ram_mb - s.free_ram_mb - RESERVED_RAM_MB,
    diskGb: s.disk_mb_used / 1024,
  });
  const before = new Map(fleet.hypervisors.map((h) => [h.host, usage(h.state)]));
  const after = new Map(fleet.hypervisors.map((h) => [h.host, usage(h.state)]));
  for (const m of plan.migrations) {
    const { flavor, shared_storage } = vm(m.instance_uuid);
    const disk = shared_storage ? 0 : flavor.root_gb;
    for (const [host, sign] of [
      [m.source_host, -1],
      [m.dest_host, 1],
    ] as const) {
      const u = after.get(host)!;
      u.vcpus += sign * flavor.vcpus;
      u.ramMb += sign * flavor.memory_mb;
      u.diskGb += sign * disk;
    }
  }
  for (const host of new Set(plan.migrations.map((m) => m.dest_host))) {
    const s = fleet.hypervisors.find((h) => h.host === host)!.state;
    const capacity = {
      vcpus: s.vcpus_total * 4,
      ramMb: s.total_usable_ram_mb - RESERVED_RAM_MB,
      diskGb: s.total_usable_disk_gb,
    };
    const [u0, u1] = [before.get(host)!, after.get(host)!];
    for (const r of ['vcpus', 'ramMb', 'diskGb'] as const) {
      if (u1[r] > u0[r] + 1e-9) expect(u1[r]).toBeLessThanOrEqual(capacity[r]);
    }
  }
}

/** Zone, role limit and anti-affinity, replaying the moves in the order they were planned. */
function checkPlacementRules(fleet: FleetInput, plan: Plan, settings: RebalanceSettings): void {
  const where = new Map(fleet.instances.map((i) => [i.uuid, i.host]));
  const zoneOf = new Map(fleet.hypervisors.map((h) => [h.host, h.availability_zone]));
  const vm = (uuid: string) => fleet.instances.find((i) => i.uuid === uuid)!;
  for (const m of plan.migrations) {
    const moving = vm(m.instance_uuid);
    expect(zoneOf.get(m.dest_host)).toBe(moving.availability_zone);
    expect(m.dest_host).not.toBe(m.source_host);
    const onDest = fleet.instances.filter((i) => where.get(i.uuid) === m.dest_host);
    if (moving.role != null) {
      expect(onDest.filter((i) => i.role === moving.role).length).toBeLessThan(
        settings.max_same_role_per_host,
      );
    }
    const group = moving.server_group;
    if (group?.policy === 'anti-affinity') {
      expect(onDest.filter((i) => i.server_group?.name === group.name)).toEqual([]);
    }
    where.set(m.instance_uuid, m.dest_host);
  }
  expect(new Set(plan.migrations.map((m) => m.instance_uuid)).size).toBe(plan.migrations.length);
}

/** Per wave: concurrency per source, destination, zone and in total, and link bandwidth per host. */
function checkWaves(plan: Plan, settings: RebalanceSettings): void {
  const rate = migrationRateMbps(settings);
  const byWave = new Map<number, PlannedMigration[]>();
  for (const m of plan.migrations) byWave.set(m.wave, [...(byWave.get(m.wave) ?? []), m]);
  for (const [wave, moves] of byWave) {
    const count = (key: (m: PlannedMigration) => string[]) => {
      const n = new Map<string, number>();
      for (const m of moves) for (const k of key(m)) n.set(k, (n.get(k) ?? 0) + 1);
      return Math.max(...n.values());
    };
    expect(moves.length).toBeLessThanOrEqual(settings.max_concurrent_migrations);
    expect(count((m) => [m.source_host])).toBeLessThanOrEqual(settings.max_migrations_per_host);
    expect(count((m) => [m.dest_host])).toBeLessThanOrEqual(settings.max_migrations_per_host);
    expect(count((m) => [m.availability_zone])).toBeLessThanOrEqual(settings.max_migrations_per_az);
    expect(count((m) => [m.source_host, m.dest_host]) * rate).toBeLessThanOrEqual(
      settings.link_bandwidth_mbps,
    );
    const w = plan.waves.find((x) => x.wave === wave)!;
    expect(moves.every((m) => m.starts_at === w.starts_at)).toBe(true);
  }
  for (let i = 1; i < plan.waves.length; i++) {
    expect(Date.parse(plan.waves[i].starts_at)).toBeGreaterThanOrEqual(Date.parse(plan.waves[i - 1].ends_at));
  }
}

/** Cooldown, ping-pong, blackout, expiry, block migrations and minimum benefit. */
function checkTimeRules(fleet: FleetInput, plan: Plan, settings: RebalanceSettings): void {
  const now = fleet.now;
  for (const m of plan.migrations) {
    const vm = fleet.instances.find((i) => i.uuid === m.instance_uuid)!;
    expect(cooldownOf(vm, fleet.history, now, settings).coolingDown).toBe(false);
    expect(recentSources(vm.uuid, fleet.history, now, settings).has(m.dest_host)).toBe(false);
    expect(blackoutAt(new Date(m.starts_at), settings.blackout_windows, settings.timezone)).toBeUndefined();
    expect(Date.parse(m.starts_at)).toBeLessThan(Date.parse(plan.expires_at));
    if (!vm.shared_storage && vm.flavor.root_gb > settings.max_block_migration_gb) {
      expect(settings.mode).toBe('approve');
      expect(m.needs_approval).toBe(true);
    }
    if (m.kind === 'victim') {
      const gain = m.expected_gain.steal_before - m.expected_gain.steal_after;
      expect(gain).toBeGreaterThanOrEqual(settings.min_benefit_percent - 0.1);
    }
  }
}

/** Every VM considered appears once, moved or with a reason, and every suffering VM is considered. */
function checkReasons(fleet: FleetInput, plan: Plan, settings: RebalanceSettings): void {
  const moved = plan.migrations.map((m) => m.instance_uuid);
  const skipped = plan.skipped.map((s) => s.instance_uuid);
  const considered = new Set([...moved, ...skipped]);
  expect(considered.size).toBe(moved.length + skipped.length);
  expect(plan.skipped.every((s) => s.reason.length > 0)).toBe(true);
  const detection = detect(
    { now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances },
    settings,
  );
  expect(plan.summary.suffering_vms).toBe(detection.suffering.length);
  for (const uuid of detection.suffering) expect(considered.has(uuid)).toBe(true);
}
