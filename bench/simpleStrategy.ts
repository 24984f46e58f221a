/**
 * The simple strategy the planner is measured against: move each suffering VM, worst (highest
 * steal) first, to the host of its availability zone with the most free RAM that can hold it (free
 * RAM only: no steal, CPU or role checks), one after the other, each move updating free RAM. With
 * `settings`, it keeps the hard limits the planner keeps whatever the destination (no move in
 * cooldown, no block migration above max_block_migration_gb, none that would not converge) and
 * the moves are put in waves with the planner's limits and plan expiry, those without a wave
 * dropped, so both strategies get the same migration budget.
 */

import { ineligibility } from '../lib/rebalance/candidates.js';
import { cooldownOf } from '../lib/rebalance/cooldown.js';
import { migrationCost } from '../lib/rebalance/cost.js';
import type { FleetInput } from '../lib/rebalance/fleetInput.js';
import type { Move } from '../lib/rebalance/outcome.js';
import type { RebalanceSettings } from '../lib/rebalance/settings.js';
import type { DetectionReport, MigrationRecord } from '../lib/rebalance/types.js';
import { WavePlanner } from '../lib/rebalance/waves.js';

export interface BaselinePlan {
  moves: (Move & { bytes: number })[];
  waves: number;
}

/** @example simpleStrategy(fleet, detection, settings).moves.length */
export function simpleStrategy(
  fleet: FleetInput,
  detection: DetectionReport,
  settings?: RebalanceSettings,
): BaselinePlan {
  const freeRam = new Map(fleet.hypervisors.map((h) => [h.host, h.state.free_ram_mb]));
  const zoneHosts = new Map<string, string[]>();
  for (const h of fleet.hypervisors)
    zoneHosts.set(h.availability_zone, [...(zoneHosts.get(h.availability_zone) ?? []), h.host]);
  const vms = new Map(fleet.instances.map((i) => [i.uuid, i]));
  const waves = settings
    ? new WavePlanner(settings, fleet.now, new Date(fleet.now.getTime() + settings.plan_ttl_minutes * 60_000))
    : null;
  const moves: BaselinePlan['moves'] = [];
  const detections = new Map(detection.vms.map((d) => [d.uuid, d]));
  const history = new Map<string, MigrationRecord[]>();
  for (const r of fleet.history) history.set(r.instance_uuid, [...(history.get(r.instance_uuid) ?? []), r]);
  const worstFirst = [...detection.suffering].sort(
    (a, b) =>
      (detections.get(b)?.steal?.mean ?? 0) - (detections.get(a)?.steal?.mean ?? 0) || a.localeCompare(b),
  );
  for (const uuid of worstFirst) {
    const vm = vms.get(uuid);
    const found = detections.get(uuid);
    if (!vm || !found) continue;
    if (settings) {
      const cooldown = cooldownOf(vm, history.get(uuid) ?? [], fleet.now, settings);
      if (ineligibility(found, migrationCost(vm, settings), cooldown)) continue;
    }
    let best: string | undefined;
    for (const host of zoneHosts.get(vm.availability_zone) ?? []) {
      const free = freeRam.get(host) ?? 0;
      if (host === vm.host || free < vm.flavor.memory_mb) continue;
      if (best === undefined || free > (freeRam.get(best) ?? 0)) best = host;
    }
    if (best === undefined) continue;
    const cost = settings ? migrationCost(vm, settings) : undefined;
    if (waves && cost) {
      const move = { source: vm.host, dest: best, zone: vm.availability_zone, seconds: cost.seconds };
      const slot = waves.slot(move);
      if (!slot.ok) continue;
      waves.add(move, slot);
    }
    freeRam.set(best, (freeRam.get(best) ?? 0) - vm.flavor.memory_mb);
    freeRam.set(vm.host, (freeRam.get(vm.host) ?? 0) + vm.flavor.memory_mb);
    const bytes = cost?.bytes ?? vm.flavor.memory_mb * 2 ** 20;
    moves.push({ instance_uuid: uuid, source_host: vm.host, dest_host: best, bytes });
  }
  return { moves, waves: waves?.summary().length ?? 0 };
}
