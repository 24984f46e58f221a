/**
 * Small fleets for planner tests, described by utilisation: samples are derived with the
 * proportional-share model (every VM of a host loses the same share of its demand, which its guest
 * sees as that share × its utilisation), ten per-minute samples, no noise.
 */
import { hostStateInput, toHostState } from '../../lib/model/hostSchema.js';
import type { HypervisorReport, InstanceReport } from '../../lib/model/reports.js';
import type { FleetInput } from '../../lib/rebalance/fleetInput.js';
import type { MigrationRecord } from '../../lib/rebalance/types.js';
import { minutesAgo, NOW } from './fixtures.js';

export interface HostSpec {
  host: string;
  az?: string;
  vcpus?: number;
  ramGib?: number;
  diskGb?: number;
  /** Extra host state fields (service, aggregates, ...). */
  state?: Record<string, unknown>;
}

export interface VmSpec {
  uuid: string;
  host: string;
  /** Busy share of its vCPUs (demand / vCPUs). */
  busy: number;
  /** load5 per vCPU; above 1.0 means delayed work. */
  load?: number;
  vcpus?: number;
  ramGib?: number;
  rootGb?: number;
  shared?: boolean;
  role?: string | null;
  group?: { name: string; policy: 'affinity' | 'anti-affinity' };
  lastMigratedAt?: string | null;
}

export const RESERVED_RAM_MB = 512;

/** A fleet of `hosts` and `vms`; VMs take their host's zone. */
export function fleetOf(
  hosts: readonly HostSpec[],
  vms: readonly VmSpec[],
  extra: { history?: MigrationRecord[]; now?: Date } = {},
): FleetInput {
  const byHost = new Map(hosts.map((h) => [h.host, h]));
  const demand = new Map<string, number>();
  for (const vm of vms) demand.set(vm.host, (demand.get(vm.host) ?? 0) + vm.busy * (vm.vcpus ?? 4));
  const lostOf = (host: string) => {
    const d = demand.get(host) ?? 0;
    const c = byHost.get(host)?.vcpus ?? 16;
    return d > c ? ((d - c) / d) * 100 : 0;
  };
  const instances = vms.map((vm) => instance(vm, byHost.get(vm.host)?.az ?? 'az1', lostOf(vm.host)));
  const hypervisors = hosts.map((h) =>
    hypervisor(
      h,
      instances.filter((i) => i.host === h.host),
    ),
  );
  return {
    now: extra.now ?? NOW,
    hypervisors,
    instances,
    history: extra.history ?? [],
    previouslySuffering: [],
  };
}

function instance(vm: VmSpec, az: string, lost: number): InstanceReport {
  const vcpus = vm.vcpus ?? 4;
  const load = vm.load ?? 0.5;
  return {
    uuid: vm.uuid,
    name: vm.uuid,
    host: vm.host,
    nodename: vm.host,
    availability_zone: az,
    role: vm.role ?? null,
    flavor: {
      name: 'flavor',
      vcpus,
      memory_mb: (vm.ramGib ?? 8) * 1024,
      root_gb: vm.rootGb ?? 40,
      ephemeral_gb: 0,
      swap: 0,
    },
    shared_storage: vm.shared ?? true,
    server_group: vm.group ?? null,
    kubernetes_node: null,
    consul: null,
    last_migrated_at: vm.lastMigratedAt ?? null,
    reported_at: NOW.toISOString(),
    samples: Array.from({ length: 10 }, (_, i) => ({
      ts: minutesAgo(i),
      steal_percent: lost * vm.busy,
      cpu_percent: vm.busy * (100 - lost),
      load5: load * vcpus,
    })),
  };
}

function hypervisor(h: HostSpec, vms: readonly InstanceReport[]): HypervisorReport {
  const az = h.az ?? 'az1';
  const ramMb = (h.ramGib ?? 128) * 1024;
  const diskGb = h.diskGb ?? 1000;
  const usedRam = vms.reduce((n, v) => n + v.flavor.memory_mb, 0);
  const usedDisk = vms.reduce((n, v) => n + (v.shared_storage ? 0 : v.flavor.root_gb * 1024), 0);
  const state = toHostState(
    hostStateInput.parse({
      host: h.host,
      availability_zone: az,
      vcpus_total: h.vcpus ?? 16,
      vcpus_used: vms.reduce((n, v) => n + v.flavor.vcpus, 0),
      cpu_allocation_ratio: 4,
      ram_allocation_ratio: 1,
      disk_allocation_ratio: 1,
      total_usable_ram_mb: ramMb,
      free_ram_mb: ramMb - RESERVED_RAM_MB - usedRam,
      total_usable_disk_gb: diskGb,
      disk_mb_used: usedDisk,
      free_disk_mb: diskGb * 1024 - usedDisk,
      aggregates: [{ name: az, metadata: { availability_zone: az } }],
      instances: vms.map((v) => v.uuid),
      ...h.state,
    }),
  );
  return {
    host: h.host,
    nodename: h.host,
    availability_zone: az,
    reported_at: NOW.toISOString(),
    state,
    samples: [],
  };
}

/**
 * One contended 16-vCPU host `src` in az1 with three suffering 4-vCPU web VMs (busy 0.9, 8 GiB,
 * shared storage) and a noisy 8-vCPU batch VM (busy 0.95, not suffering: load 0.9), so demand is
 * 18.4 vCPUs and every VM loses 13 % of its demand; plus `dests` calm hosts in az1.
 */
export function contendedFleet(dests = ['d1', 'd2', 'd3'], vmExtra: Partial<VmSpec> = {}): FleetInput {
  return fleetOf(
    [{ host: 'src' }, ...dests.map((host) => ({ host }))],
    [
      { uuid: 'web-1', host: 'src', busy: 0.9, load: 1.5, role: 'web', ...vmExtra },
      { uuid: 'web-2', host: 'src', busy: 0.9, load: 1.5, role: 'web', ...vmExtra },
      { uuid: 'web-3', host: 'src', busy: 0.9, load: 1.5, role: 'web', ...vmExtra },
      {
        uuid: 'batch-1',
        host: 'src',
        busy: 0.95,
        load: 0.9,
        vcpus: 8,
        ramGib: 32,
        role: 'batch',
        shared: false,
      },
      ...dests.map((host, i) => ({ uuid: `calm-${i + 1}`, host, busy: 0.2, role: 'cache' })),
    ],
  );
}

/** The fleet as a FLEET.json document (what `placid plan --fleet` reads). */
export function fleetDocument(fleet: FleetInput): Record<string, unknown> {
  return {
    now: fleet.now.toISOString(),
    hypervisors: fleet.hypervisors.map((h) => ({
      ...h.state,
      availability_zone: h.availability_zone,
      samples: h.samples,
    })),
    instances: fleet.instances,
    migrations: fleet.history,
  };
}
