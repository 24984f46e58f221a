/**
 * The simulated Nova, Kubernetes and Consul (lib/drivers/simulated) over the world's VMs: one
 * server per VM on its host, a Kubernetes node with two app pods and a DaemonSet pod per VM that is
 * a node, a Consul agent per VM that runs one. Live migrations take as long as the cost model says at
 * the scenario's bandwidth and fail at the scenario's rate. It reports each migration's start and end
 * (the constraint checks and the migration timeline need the exact times), and `sync` brings the
 * world up to date: a completed migration moves the VM, so its steal follows its new host.
 */
import { type SimMigration, type SimServer, SimulatedFleet } from '../drivers/simulated/fleet.js';
import type { Clock } from '../model/clock.js';
import { migrationRateMbps } from '../rebalance/cost.js';
import type { Layout } from './layout.js';
import { seedFor } from './random.js';
import type { Scenario } from './scenario.js';
import type { World } from './world.js';

export interface RunningMigration {
  vm: number;
  source: number;
  dest: number;
  startedAt: number;
  rateMbps: number;
}

export interface MigrationListener {
  started(at: number, migration: RunningMigration, running: readonly RunningMigration[]): void;
  ended(at: number, migration: RunningMigration, status: SimMigration['status']): void;
}

export class WorldFleet extends SimulatedFleet {
  /** Migrations in flight, by Nova migration uuid. */
  readonly running = new Map<string, RunningMigration>();
  /** When each VM's last completed migration ended (what Nova shows), by VM index. */
  readonly lastMigratedAt = new Map<number, number>();
  listener?: MigrationListener;
  private readonly vmIndex = new Map<string, number>();
  private readonly hostIndex: Map<string, number>;
  private readonly rate: number;

  constructor(
    private readonly layout: Layout,
    scenario: Scenario,
    clock: Clock,
  ) {
    const f = scenario.failures;
    super({
      clock,
      seed: seedFor(scenario.seed, 'failures'),
      failures: {
        migration: f.migration,
        novaUnavailable: f.nova_unavailable,
        evictionBlocked: f.eviction_blocked,
        consulUnreachable: f.consul_unreachable,
      },
      cost: scenario.rebalance,
    });
    this.rate = migrationRateMbps(scenario.rebalance);
    this.hostIndex = new Map(layout.hosts.map((h) => [h.name, h.index]));
    for (const vm of layout.vms) {
      this.vmIndex.set(vm.uuid, vm.index);
      const vmReport = {
        uuid: vm.uuid,
        host: layout.hosts[vm.host].name,
        flavor: { memory_mb: vm.flavor.ram_mb, root_gb: vm.flavor.disk_gb },
        shared_storage: !vm.localDisk,
        kubernetes_node: vm.kubernetesNode,
        consul: vm.consul,
      };
      this.addVm(vmReport, vm.name);
    }
  }

  override startMigration(server: SimServer, dest: string): SimMigration {
    const source = this.hostIndex.get(server.host)!;
    const m = super.startMigration(server, dest);
    const migration: RunningMigration = {
      vm: this.vmIndex.get(server.uuid)!,
      source,
      dest: this.hostIndex.get(dest) ?? -1,
      startedAt: m.startedAtMs,
      rateMbps: this.rate,
    };
    this.running.set(m.uuid, migration);
    this.listener?.started(m.startedAtMs, migration, [...this.running.values()]);
    return m;
  }

  override finish(server: SimServer | undefined, m: SimMigration, status: SimMigration['status']): void {
    super.finish(server, m, status);
    const migration = this.running.get(m.uuid);
    if (!migration) return;
    this.running.delete(m.uuid);
    if (status === 'completed') this.lastMigratedAt.set(migration.vm, m.updatedAtMs);
    this.listener?.ended(m.updatedAtMs, migration, status);
  }

  /** Ends the migrations due by now and puts every VM in the world where Nova has it. */
  sync(world: World): void {
    for (const m of [...this.running.values()]) this.settle(this.layout.vms[m.vm].uuid);
    for (const [uuid, server] of this.servers) {
      const vm = this.vmIndex.get(uuid)!;
      const host = this.hostIndex.get(server.host)!;
      if (world.hostOf[vm] !== host) world.move(vm, host);
    }
  }

  /** In-flight migrations as [vm, destination] (the destination's claim). */
  arrivals(): Array<[number, number]> {
    return [...this.running.values()].filter((m) => m.dest >= 0).map((m) => [m.vm, m.dest]);
  }

  /** Migration traffic per host (in + out), Mbit/s. */
  linkMbps(): Float64Array {
    const out = new Float64Array(this.layout.hosts.length);
    for (const m of this.running.values()) {
      out[m.source] += m.rateMbps;
      if (m.dest >= 0) out[m.dest] += m.rateMbps;
    }
    return out;
  }

  bandwidthMbps(): number {
    let total = 0;
    for (const m of this.running.values()) total += m.rateMbps;
    return total;
  }
}
