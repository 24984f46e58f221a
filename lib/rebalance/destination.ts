/**
 * Asks the placement engine where one VM could live-migrate, the way Nova's live-migration task
 * asks its scheduler: the VM's flavor, its server group (members and their hosts after the planned
 * moves), `ignore_hosts` = the source (plus the hosts it left recently: no ping-pong), and a
 * destination in the source's cell (only that cell's hosts are given to the engine, as Nova's host
 * manager scopes a move to its cell). Placid's move filters read the typed `placid` context.
 * Hosts the cell's Fleet has not caught up with are ignored too (planState.ts); when that leaves
 * no destination, the Fleet is rebuilt and the engine asked again. The engine runs without
 * explanations; only when no host is left does it run again with them, to say which filters
 * removed the candidates.
 */
import { inAvailabilityZone, MembershipFacts } from '../engine/aggregates.js';
import type { Elimination } from '../engine/explain.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { InstanceReport } from '../model/reports.js';
import type { InstanceGroup } from '../model/requestSpec.js';
import type { MoveContext, MoveRequestSpec } from './moveContext.js';
import type { PlanState } from './planState.js';

/** A server-group member and the host it reported on. */
export interface GroupMember {
  uuid: string;
  host: string;
}

export interface MoveQuery {
  vm: InstanceReport;
  /** Where the VM is now. */
  source: string;
  demandVcpus: number;
  /** Hosts the VM must not go to besides its source, with why (e.g. ping-pong). */
  excluded: ReadonlyMap<string, string>;
  /** The members of the VM's server group, when it has one. */
  groupMembers: readonly GroupMember[];
  limits: MoveContext['limits'];
  requestId: string;
}

export type Destinations =
  | { ok: true; spec: MoveRequestSpec; hosts: string[] }
  | { ok: false; reason: string };

/** Builds the request for moving `q.vm` from `q.source`, also ignoring `stale` hosts. */
export function moveSpec(q: MoveQuery, state: PlanState, stale: Iterable<string> = []): MoveRequestSpec {
  const { vm, source } = q;
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
    ignore_hosts: [source, ...q.excluded.keys(), ...stale],
    force_hosts: [],
    force_nodes: [],
    requested_destination: { cell, allow_cross_cell_move: false },
    numa_topology: null,
    pci_requests: [],
    // A disk on shared storage needs no room on the destination's local disk.
    is_bfv: vm.shared_storage,
    instance_metadata: {},
    placid: {
      vm: {
        uuid: vm.uuid,
        availabilityZone: vm.availability_zone,
        role: vm.role ?? null,
        demandVcpus: q.demandVcpus,
      },
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
  const cell = state.host(q.source)?.cell_uuid ?? null;
  if (cell === null && state.hasCells()) {
    // Nova refuses a move across cells, but only after the drain: not knowing the cell, stay put.
    return { ok: false, reason: `the cell of ${q.source} is unknown while other hosts name theirs` };
  }
  let fleet = state.fleetOfCell(cell);
  let spec = moveSpec(q, state, state.staleHosts(cell));
  let decision = await scheduler.schedule(fleet, spec, { now, alternates: true });
  if (decision.error && state.staleHosts(cell).size > 0) {
    fleet = state.fleetOfCell(cell, true);
    spec = moveSpec(q, state);
    decision = await scheduler.schedule(fleet, spec, { now, alternates: true });
  }
  const placed = decision.placements[0];
  if (!decision.error && placed) {
    return { ok: true, spec, hosts: [placed.host.host, ...placed.alternates.map((h) => h.host)] };
  }
  const explained = await scheduler.schedule(fleet, spec, { now, alternates: false, explain: true });
  const eliminated = explained.eliminated();
  const message = decision.error?.message ?? 'the engine placed nothing';
  return { ok: false, reason: noDestinationReason(eliminated, state, q, scheduler, message) };
}

function serverGroup(
  vm: InstanceReport,
  members: readonly GroupMember[],
  state: PlanState,
): InstanceGroup | null {
  const group = vm.server_group;
  if (!group) return null;
  const hosts = new Set(members.map((m) => state.hostOf(m.uuid, m.host)));
  const uuids = members.map((m) => m.uuid);
  return {
    name: group.name,
    uuid: group.name,
    policy: group.policy,
    members: uuids,
    hosts: [...hosts],
    rules: {},
  };
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
  fallback: string,
): string {
  const zone = q.vm.availability_zone;
  const defaultZone = scheduler.config.DEFAULT.default_availability_zone;
  const memberships = new MembershipFacts();
  const byStage = new Map<string, { count: number; example: string }>();
  let inZone = 0;
  let otherZones = 0;
  for (const e of eliminated) {
    // The source and the excluded hosts are listed apart; they were never candidates.
    if (e.host === q.source || q.excluded.has(e.host)) continue;
    const host = state.host(e.host);
    if (host && !inAvailabilityZone(host, zone, defaultZone, memberships)) {
      otherZones++;
      continue;
    }
    inZone++;
    const entry = byStage.get(e.filter);
    if (entry) entry.count++;
    else byStage.set(e.filter, { count: 1, example: `${e.host}: ${e.reason}` });
  }
  const excluded = [...q.excluded].map(([host, why]) => `${host} (${why})`);
  const notConsidered = `; not considered: the source ${q.source}${excluded.length > 0 ? `, ${excluded.join(', ')}` : ''}`;
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
