/**
 * Host states as the schema (hostSchema.ts) or the fast path (hostFastPath.ts) hand them over,
 * completed with Nova's defaults. No zod here: the fast path must not load it.
 */
import { BOUNDS } from './boundsTable.js';
import { ValidationError } from './errors.js';
import type { HostStateOutput } from './hostSchema.js';
import {
  ASSUMED_SERVICE,
  HOST_STATE_FIELDS,
  type HostState,
  NO_LIMITS,
  type StatValue,
} from './hostState.js';

/** Validates one host state document and fills Nova's defaults. */
export function toHostState(parsed: HostStateOutput): HostState {
  return completeHostState(parsed, extrasOf(parsed));
}

/** As toHostState, for a caller that has the document's unknown fields (`extra`) already. */
export function completeHostState(parsed: HostStateOutput, extra: Record<string, unknown>): HostState {
  const stats = parsed.stats;
  return {
    host: parsed.host,
    nodename: parsed.nodename ?? parsed.host,
    uuid: parsed.uuid ?? `${parsed.host}:${parsed.nodename ?? parsed.host}`,
    cell_uuid: parsed.cell_uuid ?? null,
    free_ram_mb: parsed.free_ram_mb,
    total_usable_ram_mb: parsed.total_usable_ram_mb,
    free_disk_mb: parsed.free_disk_mb,
    total_usable_disk_gb: parsed.total_usable_disk_gb,
    disk_mb_used: parsed.disk_mb_used,
    vcpus_total: parsed.vcpus_total,
    vcpus_used: parsed.vcpus_used,
    cpu_allocation_ratio: parsed.cpu_allocation_ratio ?? null,
    ram_allocation_ratio: parsed.ram_allocation_ratio ?? null,
    disk_allocation_ratio: parsed.disk_allocation_ratio ?? null,
    aggregates: parsed.aggregates,
    instances: parsed.instances,
    // Nova derives num_instances from stats; an explicit field wins, then stats, then the instance map.
    num_instances:
      parsed.num_instances ??
      statCount(stats.num_instances, BOUNDS.host_instances.max) ??
      Object.keys(parsed.instances).length,
    // Nova's HostState reads it from the `io_workload` stat; an explicit field wins.
    num_io_ops: parsed.num_io_ops ?? statCount(stats.io_workload, BOUNDS.io_ops.max) ?? 0,
    failed_builds: parsed.failed_builds,
    metrics: parsed.metrics,
    service: parsed.service ?? ASSUMED_SERVICE,
    hypervisor_type: parsed.hypervisor_type ?? null,
    hypervisor_version: parsed.hypervisor_version ?? null,
    hypervisor_hostname: parsed.hypervisor_hostname ?? null,
    supported_instances: parsed.supported_instances,
    cpu_info: parsed.cpu_info,
    host_ip: parsed.host_ip ?? null,
    stats,
    numa_topology: parsed.numa_topology ?? null,
    pci_stats: parsed.pci_stats ?? null,
    availability_zone: parsed.availability_zone ?? null,
    traits: parsed.traits,
    inventories: parsed.inventories,
    extra,
    limits: NO_LIMITS,
  };
}

/** The fields HostState does not know (they land in `extra`). */
function extrasOf(parsed: HostStateOutput): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  // for...in, not Object.entries: no pair arrays per host (parsed is a plain object without __proto__).
  for (const k in parsed) if (!HOST_STATE_FIELDS.has(k)) extra[k] = (parsed as Record<string, unknown>)[k];
  return extra;
}

/** A counter stat (`num_instances`, `io_workload`) when it is a count within `max` (stats are free-form strings). */
export function statCount(value: StatValue | undefined, max: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const n = Number.parseInt(value, 10) || 0;
  return n >= 0 && n <= max ? n : undefined;
}

/** Refuses two hosts with the same host/nodename, naming both positions. */
export function checkDistinctHosts(states: readonly HostState[], source: string): void {
  // One Set insertion per host (a Map's get and set were two lookups, in a third more memory);
  // the first of a pair is looked for only when there is one.
  const seen = new Set<string>();
  for (let i = 0; i < states.length; i++) {
    const key = distinctKey(states[i]);
    const size = seen.size;
    if (seen.add(key).size === size) {
      const first = states.findIndex((h) => distinctKey(h) === key);
      const h = states[i];
      throw new ValidationError(source, [
        { path: `[${i}]`, message: `duplicate host/nodename ${h.host}/${h.nodename} (first at [${first}])` },
      ]);
    }
  }
}

/**
 * The host name alone when the node has the same name (most hosts): ids hold no NUL, so no other
 * host/node pair can make that key.
 */
function distinctKey(h: HostState): string {
  return h.nodename === h.host ? h.host : `${h.host}\u0000${h.nodename}`;
}
