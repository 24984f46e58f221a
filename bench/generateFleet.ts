/**
 * Generates a fleet with noisy neighbours for benchmarks and tests: hosts spread over
 * availability zones, VMs with flavors, roles, server groups and shared or local storage, and ten
 * minutes of per-minute samples consistent with the proportional-share steal model. Seeded, so the
 * same shape always gives the same fleet.
 *
 * Most hosts run below 85 % of their CPUs (housekeeping steal under 0.8 % of demand). A share of
 * them is contended: one or two noisy neighbours (CPU-bound, load5 just under one per vCPU: busy
 * but not suffering), three to six busy VMs (75-95 % busy, load5 above one per vCPU: they suffer)
 * and calm VMs scaled so demand is 1.2-1.5 times what the host can deliver: every VM there loses
 * 17-33 % of its demand, which a guest sees as that share of its own utilisation.
 */
import { seededRandom } from '../lib/engine/random.js';
import { hostStateInput, toHostState } from '../lib/model/hostSchema.js';
import type { HypervisorReport, InstanceReport } from '../lib/model/reports.js';
import { type FleetInput, withInternedStates } from '../lib/rebalance/fleetInput.js';
import type { MigrationRecord } from '../lib/rebalance/types.js';

export interface FleetShape {
  hosts: number;
  vms: number;
  /** Availability zones az1..azN (default 2). */
  zones?: number;
  seed?: number;
  /** Share of hosts with noisy neighbours (default 0.1). */
  contendedShare?: number;
  /** Distinct roles (default one per 25 VMs, at least 8). */
  roles?: number;
  /** Share of VMs whose disk is on shared storage (default 0.5). */
  sharedStorageShare?: number;
  /** Share of VMs moved in the last three hours, in cooldown (default 0.02). */
  recentlyMovedShare?: number;
  /** Share of VMs in an anti-affinity server group of their role (default 0.1). */
  serverGroupShare?: number;
  now?: Date;
  /**
   * What the hypervisors report as steal_percent (default `absent`: no host samples). The ways
   * agents in the field compute it: `demand_weighted` (stolen vCPUs / demanded vCPUs: what the
   * report schema defines), `mean` (plain mean of its VMs' guest steal), `vcpu_weighted` (guest
   * steal weighted by vCPUs).
   */
  hostSteal?: HostStealVariant;
}

export const HOST_STEAL_VARIANTS = ['demand_weighted', 'mean', 'vcpu_weighted', 'absent'] as const;
export type HostStealVariant = (typeof HOST_STEAL_VARIANTS)[number];

const HOST_VCPUS = 32;
const HOST_RAM_MB = 393_216;
const HOST_DISK_GB = 2_000;
const RESERVED_RAM_MB = 512;
const SAMPLES = 10;

const FLAVORS = [
  { name: 'm1.small', vcpus: 2, memory_mb: 4096, root_gb: 20, weight: 3 },
  { name: 'm1.medium', vcpus: 4, memory_mb: 8192, root_gb: 40, weight: 4 },
  { name: 'm1.large', vcpus: 8, memory_mb: 16384, root_gb: 80, weight: 2 },
  { name: 'm1.xlarge', vcpus: 8, memory_mb: 32768, root_gb: 160, weight: 1 },
];

type Kind = 'noisy' | 'busy' | 'calm';

interface DraftVm {
  report: InstanceReport;
  kind: Kind;
  utilisation: number;
  loadPerVcpu: number;
}

/** @example const fleet = generateFleet({ hosts: 100, vms: 2000, seed: 7 }); */
export function generateFleet(shape: FleetShape): FleetInput {
  const random = seededRandom(shape.seed ?? 1);
  const between = (lo: number, hi: number) => lo + random() * (hi - lo);
  const zones = shape.zones ?? 2;
  const now = shape.now ?? new Date('2026-12-01T12:00:00Z');
  const roles = shape.roles ?? Math.max(8, Math.round(shape.vms / 25));
  const minutes = Array.from({ length: SAMPLES }, (_, i) =>
    new Date(now.getTime() - i * 60_000).toISOString(),
  );
  const hostNames = Array.from({ length: shape.hosts }, (_, i) => {
    const zone = `az${(i % zones) + 1}`;
    return { name: `cmp-${zone}-${String(Math.floor(i / zones) + 1).padStart(4, '0')}`, zone };
  });
  const contended = new Set(
    hostNames.filter(() => random() < (shape.contendedShare ?? 0.1)).map((h) => h.name),
  );
  const hypervisors: HypervisorReport[] = [];
  const instances: InstanceReport[] = [];
  const history: MigrationRecord[] = [];
  let serial = 0;
  hostNames.forEach((h, hostIndex) => {
    const count =
      Math.floor(((hostIndex + 1) * shape.vms) / shape.hosts) -
      Math.floor((hostIndex * shape.vms) / shape.hosts);
    const drafts: DraftVm[] = [];
    let ramLeft = HOST_RAM_MB - RESERVED_RAM_MB;
    for (let k = 0; k < count; k++) {
      const flavor = pickFlavor(random, ramLeft);
      if (!flavor) break;
      ramLeft -= flavor.memory_mb;
      serial++;
      const role = `role-${Math.floor(random() * roles) + 1}`;
      const report: InstanceReport = {
        uuid: `vm-${String(serial).padStart(6, '0')}`,
        name: `${role}-${serial}`,
        host: h.name,
        nodename: h.name,
        availability_zone: h.zone,
        role,
        flavor: {
          name: flavor.name,
          vcpus: flavor.vcpus,
          memory_mb: flavor.memory_mb,
          root_gb: flavor.root_gb,
          ephemeral_gb: 0,
          swap: 0,
        },
        shared_storage: random() < (shape.sharedStorageShare ?? 0.5),
        server_group:
          random() < (shape.serverGroupShare ?? 0.1) ? { name: `sg-${role}`, policy: 'anti-affinity' } : null,
        kubernetes_node: null,
        consul: null,
        last_migrated_at: null,
        reported_at: now.toISOString(),
        samples: [],
      };
      if (random() < (shape.recentlyMovedShare ?? 0.02)) {
        const at = new Date(now.getTime() - between(0.5, 3) * 3_600_000).toISOString();
        report.last_migrated_at = at;
        const from = hostNames[(hostIndex + zones) % hostNames.length].name;
        history.push({ instance_uuid: report.uuid, source_host: from, dest_host: h.name, at });
      }
      drafts.push({ report, kind: 'calm', utilisation: between(0.05, 0.45), loadPerVcpu: between(0.1, 1.4) });
    }
    if (contended.has(h.name)) shapeContention(drafts, between);
    else calm(drafts);
    const demand = drafts.reduce((n, d) => n + d.utilisation * d.report.flavor.vcpus, 0);
    // Below the model's 1 % "measurable" line, calm hosts show housekeeping steal only.
    const lost = demand > HOST_VCPUS ? ((demand - HOST_VCPUS) / demand) * 100 : between(0, 0.8);
    for (const d of drafts) {
      d.report.samples = minutes.map((ts) => sample(ts, d, lost, between));
      instances.push(d.report);
    }
    const report = hypervisor(h.name, h.zone, drafts, now);
    report.samples = hostSamples(drafts, shape.hostSteal ?? 'absent');
    hypervisors.push(report);
  });
  return {
    now,
    hypervisors: withInternedStates(hypervisors, instances),
    instances,
    history,
    previouslySuffering: [],
  };
}

function pickFlavor(random: () => number, ramLeft: number) {
  const fitting = FLAVORS.filter((f) => f.memory_mb <= ramLeft);
  const total = fitting.reduce((n, f) => n + f.weight, 0);
  let roll = random() * total;
  for (const f of fitting) {
    roll -= f.weight;
    if (roll < 0) return f;
  }
  return fitting.at(-1);
}

/** A calm host: demand under 85 % of its CPUs. */
function calm(drafts: DraftVm[]): void {
  const demand = drafts.reduce((n, d) => n + d.utilisation * d.report.flavor.vcpus, 0);
  const limit = 0.85 * HOST_VCPUS;
  if (demand > limit) for (const d of drafts) d.utilisation *= limit / demand;
}

/** Noisy neighbours, busy victims and calm VMs, the calm ones scaled so demand is 1.2-1.5 times capacity. */
function shapeContention(drafts: DraftVm[], between: (lo: number, hi: number) => number): void {
  const bySize = [...drafts].sort((a, b) => b.report.flavor.vcpus - a.report.flavor.vcpus);
  const noisy = bySize.slice(0, between(0, 1) < 0.5 ? 1 : 2);
  for (const d of noisy) Object.assign(d, { kind: 'noisy', utilisation: 0.95, loadPerVcpu: 0.9 });
  const rest = drafts.filter((d) => d.kind === 'calm');
  const busyCount = Math.min(rest.length, 3 + Math.floor(between(0, 4)));
  for (const d of rest.slice(0, busyCount)) {
    Object.assign(d, { kind: 'busy', utilisation: between(0.75, 0.95), loadPerVcpu: between(1.3, 2) });
  }
  const calmVms = rest.slice(busyCount);
  for (const d of calmVms) d.loadPerVcpu = between(0.1, 0.6);
  const target = between(1.2, 1.5) * HOST_VCPUS;
  const fixed = drafts
    .filter((d) => d.kind !== 'calm')
    .reduce((n, d) => n + d.utilisation * d.report.flavor.vcpus, 0);
  const calmVcpus = calmVms.reduce((n, d) => n + d.report.flavor.vcpus, 0);
  const u = calmVcpus > 0 ? Math.min(0.6, Math.max(0.02, (target - fixed) / calmVcpus)) : 0;
  for (const d of calmVms) d.utilisation = u * between(0.8, 1.2);
}

/** One minute: the VM loses `lostPercent` of its demand, which its guest sees as lost × utilisation. */
function sample(ts: string, d: DraftVm, lostPercent: number, between: (lo: number, hi: number) => number) {
  const noise = lostPercent > 5 ? between(-1, 1) : between(-0.05, 0.05);
  return {
    ts,
    steal_percent: round(Math.max(0, lostPercent * d.utilisation + noise)),
    cpu_percent: round(Math.min(100, d.utilisation * (100 - lostPercent))),
    load5: round(d.loadPerVcpu * d.report.flavor.vcpus * between(0.97, 1.03)),
  };
}

function hypervisor(name: string, zone: string, drafts: DraftVm[], now: Date): HypervisorReport {
  const ram = drafts.reduce((n, d) => n + d.report.flavor.memory_mb, 0);
  const diskMb = drafts.reduce(
    (n, d) => n + (d.report.shared_storage ? 0 : d.report.flavor.root_gb * 1024),
    0,
  );
  const state = toHostState(
    hostStateInput.parse({
      host: name,
      nodename: name,
      availability_zone: zone,
      vcpus_total: HOST_VCPUS,
      vcpus_used: drafts.reduce((n, d) => n + d.report.flavor.vcpus, 0),
      cpu_allocation_ratio: 4,
      ram_allocation_ratio: 1,
      disk_allocation_ratio: 1,
      total_usable_ram_mb: HOST_RAM_MB,
      free_ram_mb: HOST_RAM_MB - RESERVED_RAM_MB - ram,
      total_usable_disk_gb: HOST_DISK_GB,
      disk_mb_used: diskMb,
      free_disk_mb: HOST_DISK_GB * 1024 - diskMb,
      aggregates: [{ name: zone, metadata: { availability_zone: zone } }],
      instances: drafts.map((d) => d.report.uuid),
    }),
  );
  return {
    host: name,
    nodename: name,
    availability_zone: zone,
    reported_at: now.toISOString(),
    state,
    samples: [],
  };
}

/** The host's samples, minute by minute, from its VMs' samples, with steal computed as `variant` says. */
function hostSamples(drafts: readonly DraftVm[], variant: HostStealVariant): HypervisorReport['samples'] {
  if (variant === 'absent' || drafts.length === 0) return [];
  return drafts[0].report.samples.map((first, i) => {
    let stolen = 0;
    let used = 0;
    let stealSum = 0;
    let vcpuSteal = 0;
    let vcpus = 0;
    let load5 = 0;
    for (const d of drafts) {
      const s = d.report.samples[i];
      const n = d.report.flavor.vcpus;
      stolen += (s.steal_percent / 100) * n;
      used += (s.cpu_percent / 100) * n;
      stealSum += s.steal_percent;
      vcpuSteal += s.steal_percent * n;
      vcpus += n;
      load5 += s.load5;
    }
    const steal =
      variant === 'demand_weighted'
        ? stolen + used > 0
          ? (100 * stolen) / (stolen + used)
          : 0
        : variant === 'mean'
          ? stealSum / drafts.length
          : vcpuSteal / vcpus;
    return {
      ts: first.ts,
      steal_percent: round(Math.min(100, steal)),
      cpu_percent: round(Math.min(100, (100 * used) / HOST_VCPUS)),
      load5: round(load5),
    };
  });
}

const round = (v: number) => Math.round(v * 100) / 100;
