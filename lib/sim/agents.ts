/**
 * The simulated agents: one per hypervisor, sampling every minute and sending a report message
 * (lib/model/reports.ts, schema version 1) every `report_interval_minutes` with the samples taken
 * since the last one, as a collector scraping Prometheus every five minutes would. A message holds
 * the hypervisor's report (its state as Nova would show it: usage of the VMs on it and of those
 * migrating to it) and a report of each VM on it, carrying the samples the VM took on that host.
 */
import type { HostSample, InstanceSample } from '../model/reports.js';
import type { Layout, SimVm } from './layout.js';
import type { HostSpec } from './scenarioSchema.js';
import type { HostUsage } from './usage.js';
import type { World } from './world.js';

/** A VM's sample and the host (index) it was taken on. */
type VmSample = InstanceSample & { host: number };

export class Agents {
  private vmSamples: VmSample[][];
  private hostSamples: HostSample[][];

  constructor(
    private readonly layout: Layout,
    private readonly spec: HostSpec,
  ) {
    this.vmSamples = layout.vms.map(() => []);
    this.hostSamples = layout.hosts.map(() => []);
  }

  /** Takes the samples of the minute the world just stepped, stamped `ts` (the minute's end). */
  sample(world: World, ts: string, migrationMbps: ArrayLike<number>): void {
    for (let i = 0; i < world.vmCount; i++) {
      this.vmSamples[i].push({
        host: world.hostOf[i],
        ts,
        steal_percent: r2(world.steal[i]),
        load5: r2(world.load5[i]),
        cpu_percent: r2(Math.min(100, world.cpu[i])),
      });
    }
    for (let h = 0; h < world.hostCount; h++) {
      this.hostSamples[h].push({
        ts,
        steal_percent: r2(world.hostLost[h] * 100),
        cpu_percent: r2(world.hostBusy(h) * 100),
        load5: r2(world.hostLoad5[h]),
        migration_net_mbps: Math.round(migrationMbps[h] ?? 0),
      });
    }
  }

  /**
   * Every agent's message, reported at `reportedAt`, and the samples cleared. `lastMigratedAt`
   * is what Nova says of each VM's last move (the agent reports it, so the cooldown survives a
   * report replacing the stored state).
   */
  messages(
    reportedAt: string,
    usage: readonly HostUsage[],
    lastMigratedAt: (vm: number) => string | null,
  ): string[] {
    const out = this.layout.hosts.map((host) => {
      const u = usage[host.index];
      const instances = u.vms.map((vm) =>
        this.instanceReport(this.layout.vms[vm], host.index, reportedAt, lastMigratedAt(vm)),
      );
      return JSON.stringify({
        schema_version: 1,
        hypervisors: [
          {
            ...hypervisorReport(this.layout, host.index, u, reportedAt, this.hostSamples[host.index]),
            cpu_allocation_ratio: this.spec.cpu_allocation_ratio,
            ram_allocation_ratio: this.spec.ram_allocation_ratio,
            disk_allocation_ratio: this.spec.disk_allocation_ratio,
          },
        ],
        instances,
      });
    });
    for (const list of this.vmSamples) list.length = 0;
    for (const list of this.hostSamples) list.length = 0;
    return out;
  }

  private instanceReport(vm: SimVm, host: number, reportedAt: string, lastMigratedAt: string | null) {
    const name = this.layout.hosts[host].name;
    return {
      uuid: vm.uuid,
      name: vm.name,
      host: name,
      nodename: name,
      availability_zone: vm.zone,
      role: vm.role,
      flavor: {
        name: vm.flavor.name,
        vcpus: vm.flavor.vcpus,
        memory_mb: vm.flavor.ram_mb,
        root_gb: vm.flavor.disk_gb,
        ephemeral_gb: 0,
        swap: 0,
      },
      shared_storage: !vm.localDisk,
      server_group: null,
      kubernetes_node: vm.kubernetesNode,
      consul: vm.consul,
      last_migrated_at: lastMigratedAt,
      reported_at: reportedAt,
      // Only what it sampled on this host: minutes on its previous host were that agent's to send.
      samples: this.vmSamples[vm.index].filter((s) => s.host === host).map(({ host: _h, ...s }) => s),
    };
  }
}

function hypervisorReport(
  layout: Layout,
  h: number,
  u: HostUsage,
  reportedAt: string,
  samples: HostSample[],
) {
  const host = layout.hosts[h];
  return {
    host: host.name,
    nodename: host.name,
    availability_zone: host.zone,
    reported_at: reportedAt,
    vcpus_total: host.vcpus,
    vcpus_used: u.vcpus,
    total_usable_ram_mb: host.ramMb,
    free_ram_mb: host.ramMb - u.ramMb,
    total_usable_disk_gb: host.diskGb,
    disk_mb_used: u.diskGb * 1024,
    free_disk_mb: (host.diskGb - u.diskGb) * 1024,
    aggregates: [{ name: host.zone, metadata: { availability_zone: host.zone } }],
    instances: [...u.vms, ...u.arriving].map((vm) => layout.vms[vm].uuid),
    samples,
  };
}

const r2 = (v: number) => Math.round(v * 100) / 100;
