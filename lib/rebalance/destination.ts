/**
 * Asks the placement engine where one VM could live-migrate, the way Nova's live-migration task
 * asks its scheduler: the VM's flavor, its server group (members and their hosts after the planned
 * moves), `ignore_hosts` = the source (plus the hosts it left recently: no ping-pong), and a
 * destination in the source's cell (only that cell's hosts are given to the engine, as Nova's host
 * manager scopes a move to its cell). Placid's move filters read the typed `placid` context.
 * The engine runs without explanations; only when no host is left does it run again with them, to
 * say which filters removed the candidates.
 */
import { inAvailabilityZone } from '../engine/aggregates.js';
import type { Elimination } from '../engine/explain.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { InstanceReport } from '../model/reports.js';
import type { InstanceGroup } from '../model/requestSpec.js';
import type { MoveContext, MoveRequestSpec } from './moveContext.js';
import type { PlanState } from './planState.js';

export interface MoveQuery {
  vm: InstanceReport;
  demandVcpus: number;
  /** Hosts the VM must not go to besides its source, with why (e.g. ping-pong). */
  excluded: ReadonlyMap<string, string>;
  /** The uuids of the VM's server group, when it has one. */
  groupMembers: readonly string[];
  limits: MoveContext['limits'];
  requestId: string;
}

export type Destinations = { ok: true; spec: MoveRequestSpec; hosts: string[] } | { ok: false; reason: string };

/** Builds the request for moving `q.vm` from where the plan has it now. */
export function moveSpec(q: MoveQuery, state: PlanState): MoveRequestSpec {
  const { vm } = q;
  const source = state.hostOf(vm.uuid) ?? vm.host;
  const cell = state.host(source)?.cell_uuid ?? null;
  return {
    request_id: q.requestId,
    flavor: { ...vm.flavor, extra_specs: {} },
    image: null,
    scheduler_hints: {},
    availability_zone: null,
    instance_group: serverGroup(vm, q.groupMembers, state),
    project_id: null,
    user_id: null,
    instance_uuid: vm.uuid,
    instance_uuids: null,
    num_instances: 1,
    ignore_hosts: [source, ...q.excluded.keys()],
    force_hosts: [],
    force_nodes: [],
    requested_destination: { cell, allow_cross_cell_move: false },
    numa_topology: null,
    pci_requests: [],
    // A disk on shared storage needs no room on the destination's local disk.
    is_bfv: vm.shared_storage,
    instance_metadata: {},
    placid: {
      vm: { uuid: vm.uuid, availabilityZone: vm.availability_zone, role: vm.role ?? null, demandVcpus: q.demandVcpus },
      limits: q.limits,
      fleet: state,
    },
  };
}

/**
 * The hosts the engine would choose, best first (the choice, then its alternates), or why none.
 * @example const found = await findDestinations(scheduler, state, query, now);
 */
export async function findDestinations(
  scheduler: Scheduler,
  state: PlanState,
  q: MoveQuery,
  now: Date,
): Promise<Destinations> {
  const spec = moveSpec(q, state);
  const fleet = state.fleetOfCell(spec.requested_destination?.cell ?? null);
  const decision = await scheduler.schedule(fleet, spec, { now, alternates: true });
  const placed = decision.placements[0];
  if (!decision.error && placed) {
    return { ok: true, spec, hosts: [placed.host.host, ...placed.alternates.map((h) => h.host)] };
  }
  const explained = await scheduler.schedule(fleet, spec, { now, alternates: false, explain: true });
  const eliminated = explained.eliminated();
  const message = decision.error?.message ?? 'the engine placed nothing';
  return { ok: false, reason: noDestinationReason(eliminated, state, q, scheduler, spec.ignore_hosts[0], message) };
}

function serverGroup(vm: InstanceReport, members: readonly string[], state: PlanState): InstanceGroup | null {
  const group = vm.server_group;
  if (!group) return null;
  const hosts = new Set<string>();
  for (const m of members) {
    const h = state.hostOf(m);
    if (h !== undefined) hosts.add(h);
  }
  return { name: group.name, uuid: group.name, policy: group.policy, members: [...members], hosts: [...hosts], rules: {} };
}

/**
 * "no destination: of the N other hosts of az1, HostStealFilter removed 4 (e.g. cmp3: …), …",
 * counting each host once, under the first stage that removed it; hosts of other zones are
 * only counted.
 */
export function noDestinationReason(
  eliminated: readonly Elimination[],
  state: PlanState,
  q: MoveQuery,
  scheduler: Scheduler,
  source: string,
  fallback: string,
): string {
  const zone = q.vm.availability_zone;
  const defaultZone = scheduler.config.DEFAULT.default_availability_zone;
  const byStage = new Map<string, { count: number; example: string }>();
  let inZone = 0;
  let otherZones = 0;
  for (const e of eliminated) {
    const host = state.host(e.host);
    if (host && !inAvailabilityZone(host, zone, defaultZone)) {
      otherZones++;
      continue;
    }
    inZone++;
    const entry = byStage.get(e.filter);
    if (entry) entry.count++;
    else byStage.set(e.filter, { count: 1, example: `${e.host}: ${e.reason}` });
  }
  const excluded = [...q.excluded].map(([host, why]) => `${host} (${why})`);
  const notConsidered = `; not considered: the source ${source}${excluded.length > 0 ? `, ${excluded.join(', ')}` : ''}`;
  if (inZone === 0) {
    const why = eliminated.length === 0 ? ` (${fallback})` : '';
    return `no destination: no other host in availability zone ${zone} of its cell${why}${notConsidered}`;
  }
  const stages = [...byStage]
    .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
    .map(([stage, s]) => `${stage} removed ${s.count} (e.g. ${s.example})`);
  const others = otherZones > 0 ? `; ${otherZones} host(s) of other zones not eligible` : '';
  return `no destination: of the ${inZone} other host(s) of ${zone}, ${stages.join('; ')}${others}${notConsidered}`;
}
