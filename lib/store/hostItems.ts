/**
 * Host items: the latest report's HostState as JSON, plus numeric usage attributes that conditional
 * claims can test and bump in one UpdateItem (DynamoDB conditions cannot do arithmetic, so usage is
 * kept as "used" counters and the claim compares them against `limit - requested`).
 */
import { hostStateOutOfBounds, quarantinedHostState } from '../model/bounds.js';
import type { HostState } from '../model/hostState.js';
import { withReportHeartbeat, withSighting } from '../model/liveness.js';
import type { HypervisorReport } from '../model/reports.js';
import { HOST_CHANGE_SHARDS } from './tables.js';

/** Resources held for an instance the host has not reported yet. Disk is in MiB, like HostState. */
export interface Claim {
  vcpus: number;
  memory_mb: number;
  disk_mb: number;
  /** Epoch ms, by the claiming scheduler's clock. */
  claimed_at: number;
}

export interface Usage {
  vcpus: number;
  memory_mb: number;
  disk_mb: number;
}

/** A host as stored, with pending claims already applied to `state` (what the engine should see). */
export interface StoredHost {
  state: HostState;
  reported_at: string;
  /** Bumped by every write to the item; a reader keeps the highest it has seen. */
  version: number;
  /** Epoch ms of the last write, by the writer's clock. */
  updated_at: number;
  claims: Record<string, Claim>;
  /** The newest sighting (hostSightings.ts) applied as the heartbeat, when later than `reported_at`. */
  seen_at?: string;
}

/** A compute node's key in the store's maps (write memo, sightings): `host\u0000nodename`. */
export const nodeKey = (host: string, nodename: string): string => `${host}\u0000${nodename}`;

/** Spreads hosts over the change-index shards; stable, so a host always lands in the same shard. */
export function changeShard(host: string, nodename: string): string {
  let hash = 0x811c9dc5;
  const key = nodeKey(host, nodename);
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return String((hash >>> 0) % HOST_CHANGE_SHARDS);
}

/** What the hypervisor says is in use, in the units Nova's RAM/Disk/Core filters compare. */
export function reportedUsage(state: HostState): Usage {
  return {
    vcpus: state.vcpus_used,
    memory_mb: state.total_usable_ram_mb - state.free_ram_mb,
    disk_mb: state.total_usable_disk_gb * 1024 - state.free_disk_mb,
  };
}

export function addUsage(usage: Usage, claims: Iterable<Claim>): Usage {
  const total = { ...usage };
  for (const c of claims) {
    total.vcpus += c.vcpus;
    total.memory_mb += c.memory_mb;
    total.disk_mb += c.disk_mb;
  }
  return total;
}

/** The attributes a report sets (everything but key, version and claims). */
export function reportAttributes(
  report: HypervisorReport,
  usage: Usage,
  now: number,
): Record<string, unknown> {
  return {
    change_shard: changeShard(report.host, report.nodename),
    updated_at: now,
    reported_at: report.reported_at,
    availability_zone: report.availability_zone,
    state: JSON.stringify(report.state),
    used_vcpus: usage.vcpus,
    used_memory_mb: usage.memory_mb,
    used_disk_mb: usage.disk_mb,
  };
}

/**
 * Ingest refuses out-of-range capacities, but a state stored before it did (a 1e200 MiB host) must
 * not win every decision or break claim arithmetic: every reader (the schedule snapshot, the
 * planner, `placid fleet`) sees such a host disabled with the reason, with no capacity.
 */
function harmless(state: HostState): HostState {
  const problem = hostStateOutOfBounds(state);
  return problem ? quarantinedHostState(state, problem) : state;
}

/**
 * Rebuilds the engine's view: the reported state with each pending claim consumed the way Nova's
 * consume_from_request does (vCPUs, RAM, root+ephemeral disk, one more instance and I/O op).
 */
export function hostFromItem(item: Record<string, unknown>, seenAt?: string): StoredHost {
  const state = harmless(JSON.parse(item.state as string) as HostState);
  // Stale is not up: the report is the heartbeat ComputeFilter checks against service_down_time.
  state.service = withReportHeartbeat(state.service, item.reported_at as string);
  const claims = (item.claims ?? {}) as Record<string, Claim>;
  for (const [id, c] of Object.entries(claims)) {
    state.vcpus_used += c.vcpus;
    state.free_ram_mb -= c.memory_mb;
    state.free_disk_mb -= c.disk_mb;
    state.disk_mb_used += c.disk_mb;
    state.num_instances += 1;
    state.num_io_ops += 1;
    state.instances[id] = { uuid: id };
  }
  return withSeen(
    {
      state,
      reported_at: item.reported_at as string,
      version: Number(item.version),
      updated_at: Number(item.updated_at),
      claims,
    },
    seenAt,
  );
}

/**
 * The host with a sighting of its unchanged state at `seenAt` as its heartbeat, if that is later
 * than its report and any sighting applied before; the same object otherwise.
 */
export function withSeen(stored: StoredHost, seenAt: string | undefined): StoredHost {
  if (seenAt === undefined) return stored;
  const newest = stored.seen_at ?? stored.reported_at;
  if (!(Date.parse(seenAt) > Date.parse(newest))) return stored;
  const service = withSighting(stored.state.service, newest, seenAt);
  if (service === stored.state.service) return stored;
  return { ...stored, state: { ...stored.state, service }, seen_at: seenAt };
}
