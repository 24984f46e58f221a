/**
 * The report bodies the ingest benches feed through the real ingest stage: one message per
 * hypervisor, with its node and VMs, one sample each. Each bench keeps its own VM shape.
 */

/** A fleet-minute's timestamps: reports at `minute`, their sample a second before. */
export interface ReportTimes {
  reported_at: string;
  ts: string;
  minute: number;
}

export function reportTimes(base: number, minute: number): ReportTimes {
  const at = base + minute * 60_000;
  return { reported_at: new Date(at).toISOString(), ts: new Date(at - 1_000).toISOString(), minute };
}

/** Hypervisor `h` (zones az1..az3 in turn), half its vCPUs and RAM in use. */
export function hypervisorReport(h: number, host: string, t: ReportTimes) {
  const az = `az${(h % 3) + 1}`;
  return {
    host,
    availability_zone: az,
    reported_at: t.reported_at,
    vcpus_total: 64,
    vcpus_used: 40,
    cpu_allocation_ratio: 4,
    total_usable_ram_mb: 262_144,
    free_ram_mb: 131_072,
    total_usable_disk_gb: 2_000,
    free_disk_mb: 1_000_000,
    hypervisor_type: 'QEMU',
    aggregates: [{ name: az, metadata: { availability_zone: az } }],
    samples: [{ ts: t.ts, steal_percent: (h + t.minute) % 9, cpu_percent: 55, load5: 12.5 }],
  };
}

/** What differs between the benches' VMs. */
export interface VmShape {
  flavor: { name: string; vcpus: number; memory_mb: number; root_gb: number };
  serverGroups: number;
  load5: number;
}

/** VM `v` on `host`, with its Consul node at `address`. */
export function instanceReport(
  v: number,
  hypervisor: { host: string; availability_zone: string },
  address: string,
  shape: VmShape,
  t: ReportTimes,
) {
  return {
    uuid: `00000000-0000-4000-8000-${String(v).padStart(12, '0')}`,
    name: `vm-${v}`,
    host: hypervisor.host,
    availability_zone: hypervisor.availability_zone,
    role: ['web', 'db', 'cache'][v % 3],
    flavor: shape.flavor,
    server_group: { name: `g${v % shape.serverGroups}`, policy: 'anti-affinity' },
    consul: { node: `vm-${v}`, address },
    reported_at: t.reported_at,
    samples: [{ ts: t.ts, steal_percent: (v + t.minute) % 13, load5: shape.load5, cpu_percent: 40 }],
  };
}
