/**
 * Hard constraints, checked from the simulator's own ground truth, independently of the planner
 * and the workflow: every minute, no host holds more than its capacity (vCPUs, RAM and local disk
 * under the allocation ratios, in-flight destinations included) and every VM is in its zone; at
 * every live-migration start, the zone is kept, the destination holds fewer VMs of the role than
 * `max_same_role_per_host`, the per-host, per-zone and fleet-wide concurrency limits and every
 * host's link bandwidth hold, no blackout window is open and the VM is out of its cooldown.
 * A condition that persists is reported once, when it starts.
 */
import { blackoutAt } from '../rebalance/blackout.js';
import { cooldownOf } from '../rebalance/cooldown.js';
import type { MigrationRecord } from '../rebalance/types.js';
import type { Layout } from './layout.js';
import type { Violation, ViolationKind } from './result.js';
import type { Scenario } from './scenario.js';
import type { HostUsage } from './usage.js';
import type { RunningMigration } from './worldFleet.js';

export class ConstraintChecker {
  readonly violations: Violation[] = [];
  private readonly open = new Set<string>();
  private readonly history: MigrationRecord[] = [];

  constructor(
    private readonly layout: Layout,
    private readonly scenario: Scenario,
  ) {}

  /** The minute's state: capacity of every host and the zone of every VM. */
  checkMinute(at: number, usage: readonly HostUsage[], hostOf: ArrayLike<number>): void {
    const spec = this.scenario.host;
    const seen = new Set<string>();
    const flag = (key: string, kind: ViolationKind, detail: string) => {
      seen.add(key);
      if (!this.open.has(key)) this.add(at, kind, detail);
    };
    for (const host of this.layout.hosts) {
      const u = usage[host.index];
      const limits: Array<[string, number, number]> = [
        ['vCPUs', u.vcpus, host.vcpus * spec.cpu_allocation_ratio],
        ['MiB RAM', u.ramMb, host.ramMb * spec.ram_allocation_ratio],
        ['GB local disk', u.diskGb, host.diskGb * spec.disk_allocation_ratio],
      ];
      for (const [what, used, limit] of limits) {
        if (used > limit)
          flag(
            `capacity/${host.name}/${what}`,
            'capacity',
            `${host.name} holds ${used} ${what}, more than its ${limit}`,
          );
      }
    }
    for (const vm of this.layout.vms) {
      const host = this.layout.hosts[hostOf[vm.index]];
      if (host.zone !== vm.zone)
        flag(
          `zone/${vm.uuid}`,
          'availability_zone',
          `${vm.name} is on ${host.name} in ${host.zone}, not in its zone ${vm.zone}`,
        );
    }
    for (const key of this.open) if (!seen.has(key)) this.open.delete(key);
    for (const key of seen) this.open.add(key);
  }

  /** A live migration started at `at`; `running` includes it. `hostOf` is before the move. */
  checkStart(
    at: number,
    m: RunningMigration,
    running: readonly RunningMigration[],
    hostOf: ArrayLike<number>,
  ): void {
    const s = this.scenario.rebalance;
    const vm = this.layout.vms[m.vm];
    const source = this.layout.hosts[m.source];
    const dest = this.layout.hosts[m.dest];
    const what = `${vm.name} ${source.name} → ${dest?.name ?? 'an unknown host'}`;
    if (!dest || dest.zone !== vm.zone) this.add(at, 'availability_zone', `${what} leaves zone ${vm.zone}`);
    if (dest) {
      const sameRole = (i: number) => this.layout.vms[i].role === vm.role && i !== vm.index;
      const already =
        this.layout.vms.filter((v) => hostOf[v.index] === m.dest && sameRole(v.index)).length +
        running.filter((r) => r !== m && r.dest === m.dest && sameRole(r.vm)).length;
      if (already >= s.max_same_role_per_host) {
        this.add(
          at,
          'role_limit',
          `${what}: ${dest.name} already holds ${already} VM(s) of role ${vm.role} (max_same_role_per_host ${s.max_same_role_per_host})`,
        );
      }
    }
    const perHost = this.scenario.workflow.max_migrations_per_host;
    for (const h of [m.source, m.dest]) {
      const n = running.filter((r) => r.source === h || r.dest === h).length;
      if (h >= 0 && n > perHost)
        this.add(
          at,
          'host_concurrency',
          `${what}: ${n} migrations on ${this.layout.hosts[h].name} (limit ${perHost})`,
        );
    }
    const inZone = running.filter((r) => this.layout.vms[r.vm].zone === vm.zone).length;
    if (inZone > s.max_migrations_per_az)
      this.add(
        at,
        'zone_concurrency',
        `${what}: ${inZone} migrations in ${vm.zone} (max_migrations_per_az ${s.max_migrations_per_az})`,
      );
    const total = Math.min(s.max_concurrent_migrations, this.scenario.workflow.max_concurrent_migrations);
    if (running.length > total)
      this.add(at, 'total_concurrency', `${what}: ${running.length} migrations in flight (limit ${total})`);
    for (const h of [m.source, m.dest]) {
      if (h < 0) continue;
      const mbps = running.filter((r) => r.source === h || r.dest === h).reduce((n, r) => n + r.rateMbps, 0);
      if (mbps > s.link_bandwidth_mbps)
        this.add(
          at,
          'bandwidth',
          `${what}: ${mbps} Mbit/s on ${this.layout.hosts[h].name}'s link (link_bandwidth_mbps ${s.link_bandwidth_mbps})`,
        );
    }
    if (m.rateMbps > s.migration_bandwidth_mbps)
      this.add(
        at,
        'bandwidth',
        `${what} runs at ${m.rateMbps} Mbit/s (migration_bandwidth_mbps ${s.migration_bandwidth_mbps})`,
      );
    const window = blackoutAt(new Date(at), s.blackout_windows, s.timezone);
    if (window)
      this.add(at, 'blackout', `${what} started inside blackout window ${window.text} (${s.timezone})`);
    const cooldown = cooldownOf({ uuid: vm.uuid, last_migrated_at: null }, this.history, new Date(at), s);
    if (cooldown.coolingDown)
      this.add(at, 'cooldown', `${what} started in its cooldown (${cooldown.reason})`);
  }

  /** A completed move, for the cooldown of the VM's next one. */
  moved(at: number, m: RunningMigration): void {
    this.history.push({
      instance_uuid: this.layout.vms[m.vm].uuid,
      source_host: this.layout.hosts[m.source].name,
      dest_host: this.layout.hosts[m.dest]?.name ?? '',
      at: new Date(at).toISOString(),
    });
  }

  private add(at: number, kind: ViolationKind, detail: string): void {
    this.violations.push({ at: new Date(at).toISOString(), kind, detail });
  }
}
