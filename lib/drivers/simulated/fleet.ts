/**
 * The in-memory fleet behind the simulated drivers: servers with their hosts, live migrations whose
 * duration comes from the cost model (lib/rebalance/cost.ts) at the configured bandwidth, Kubernetes
 * nodes with their pods, and Consul agents. Failures are drawn from one seeded random source, so a
 * simulation with the same seed fails the same way every time.
 */
import { seededRandom } from '../../engine/random.js';
import type { Clock } from '../../model/clock.js';
import { type CostSettings, type MigratingVm, migrationCost } from '../../rebalance/cost.js';
import { defaultRebalanceSettings } from '../../rebalance/settings.js';

export interface FailureRates {
  /** Share of live migrations that end in `error` part-way. */
  migration: number;
  /** Share of Nova calls answered 503 (retryable). */
  novaUnavailable: number;
  /** Share of pods whose PodDisruptionBudget never allows the eviction. */
  evictionBlocked: number;
  /** Share of Consul calls that find the agent unreachable (retryable). */
  consulUnreachable: number;
}

export interface SimulatedFleetOptions {
  clock: Clock;
  seed?: number;
  failures?: Partial<FailureRates>;
  cost?: Partial<CostSettings>;
  /** Seconds one pod eviction takes. Default 2. */
  evictionSeconds?: number;
}

export interface SimServer extends MigratingVm {
  uuid: string;
  host: string;
  status: string;
  taskState: string | null;
}

export interface SimMigration {
  id: number;
  uuid: string;
  status: 'running' | 'completed' | 'error' | 'cancelled';
  sourceCompute: string;
  destCompute: string;
  memoryBytes: number;
  diskBytes: number;
  startedAtMs: number;
  durationMs: number;
  /** Fraction of the duration after which it fails; null when it succeeds. */
  failsAt: number | null;
  forced: boolean;
  updatedAtMs: number;
}

export interface SimNode {
  /** The VM this node runs on (its providerID names it); undefined: no VM claims it. */
  server?: string;
  cordoned: boolean;
  pods: Array<{ namespace: string; name: string; daemonSet: boolean; blocked: boolean }>;
}

export class SimulatedFleet {
  readonly clock: Clock;
  readonly random: () => number;
  readonly failures: FailureRates;
  readonly cost: CostSettings;
  readonly evictionSeconds: number;
  readonly servers = new Map<string, SimServer>();
  readonly migrations = new Map<string, SimMigration[]>();
  readonly nodes = new Map<string, SimNode>();
  /** Consul node name → maintenance reason (null when off). */
  readonly maintenance = new Map<string, string | null>();
  /** Consul node name → the VM it runs on (the simulated catalog). */
  readonly consulServers = new Map<string, string>();
  private nextId = 1;

  constructor(options: SimulatedFleetOptions) {
    this.clock = options.clock;
    this.random = seededRandom(options.seed ?? 1);
    this.failures = {
      migration: 0,
      novaUnavailable: 0,
      evictionBlocked: 0,
      consulUnreachable: 0,
      ...options.failures,
    };
    this.cost = { ...defaultRebalanceSettings(), ...options.cost };
    this.evictionSeconds = options.evictionSeconds ?? 2;
  }

  addServer(server: Omit<SimServer, 'status' | 'taskState'> & { status?: string }): SimServer {
    const added: SimServer = { status: 'ACTIVE', ...server, taskState: null };
    this.servers.set(server.uuid, added);
    return added;
  }

  addNode(
    name: string,
    pods: Array<{ name: string; namespace?: string; daemonSet?: boolean }> = [],
    server?: string,
  ): SimNode {
    const node: SimNode = {
      ...(server ? { server } : {}),
      cordoned: false,
      pods: pods.map((p) => ({
        namespace: p.namespace ?? 'default',
        name: p.name,
        daemonSet: p.daemonSet ?? false,
        blocked: !p.daemonSet && this.chance(this.failures.evictionBlocked),
      })),
    };
    this.nodes.set(name, node);
    return node;
  }

  /**
   * A VM's server and, when it has them, its Kubernetes node (two app pods and a node-exporter
   * DaemonSet pod, named after `podPrefix`) and its Consul agent.
   */
  addVm(
    vm: Pick<SimServer, 'uuid' | 'host' | 'flavor' | 'shared_storage'> & {
      kubernetes_node: string | null;
      consul: { node: string } | null;
    },
    podPrefix: string,
  ): void {
    this.addServer({ uuid: vm.uuid, host: vm.host, flavor: vm.flavor, shared_storage: vm.shared_storage });
    if (vm.kubernetes_node) {
      const pods = [{ name: `${podPrefix}-app-0` }, { name: `${podPrefix}-app-1` }];
      this.addNode(
        vm.kubernetes_node,
        [...pods, { name: `${podPrefix}-node-exporter`, daemonSet: true }],
        vm.uuid,
      );
    }
    if (vm.consul) this.addConsulAgent(vm.consul.node, vm.uuid);
  }

  /** `server`: the VM the agent runs on, which the simulated catalog lists it at. */
  addConsulAgent(node: string, server?: string): void {
    this.maintenance.set(node, null);
    if (server) this.consulServers.set(node, server);
  }

  /** True with probability `rate`, from the seeded source. */
  chance(rate: number): boolean {
    return rate > 0 && this.random() < rate;
  }

  startMigration(server: SimServer, dest: string): SimMigration {
    const cost = migrationCost(server, this.cost);
    const now = this.clock.now();
    const migration: SimMigration = {
      id: this.nextId++,
      uuid: `sim-migration-${this.nextId - 1}`,
      status: 'running',
      sourceCompute: server.host,
      destCompute: dest,
      memoryBytes: cost.memoryBytes,
      diskBytes: cost.diskBytes,
      startedAtMs: now,
      durationMs: Math.max(1_000, Math.round(cost.seconds * 1000)),
      failsAt: this.chance(this.failures.migration) ? this.random() : null,
      forced: false,
      updatedAtMs: now,
    };
    const list = this.migrations.get(server.uuid) ?? [];
    list.push(migration);
    this.migrations.set(server.uuid, list);
    server.status = 'MIGRATING';
    server.taskState = 'migrating';
    return migration;
  }

  /** Brings a server's running migration up to the clock: done, failed, or further along. */
  settle(uuid: string): void {
    const server = this.servers.get(uuid);
    for (const m of this.migrations.get(uuid) ?? []) {
      if (m.status !== 'running') continue;
      const progress = this.progress(m);
      if (m.failsAt !== null && progress >= m.failsAt) this.finish(server, m, 'error');
      else if (progress >= 1 || m.forced) this.finish(server, m, 'completed');
    }
  }

  /** Share of the migration done at the clock's time (0..1). */
  progress(m: SimMigration): number {
    if (m.status === 'completed') return 1;
    return Math.min(1, (this.clock.now() - m.startedAtMs) / m.durationMs);
  }

  finish(server: SimServer | undefined, m: SimMigration, status: SimMigration['status']): void {
    m.status = status;
    m.updatedAtMs = this.clock.now();
    if (!server) return;
    if (status === 'completed') server.host = m.destCompute;
    server.status = 'ACTIVE';
    server.taskState = null;
  }
}
