/** The independent constraint checks catch each kind of violation, and pass a clean move. */
import { describe, expect, it } from 'vitest';
import { ConstraintChecker } from '../../lib/sim/constraints.js';
import type { Layout, SimVm } from '../../lib/sim/layout.js';
import { parseScenario } from '../../lib/sim/scenario.js';
import { hostUsage } from '../../lib/sim/usage.js';
import type { RunningMigration } from '../../lib/sim/worldFleet.js';

// 09:00 in Tokyo; the blackout window below is 08:30-09:30 there.
const AT = Date.parse('2026-12-01T00:00:00Z');
const scenario = parseScenario({
  rebalance: { max_migrations_per_az: 2, max_concurrent_migrations: 3, link_bandwidth_mbps: 6000 },
  workflow: { max_migrations_per_host: 2 },
});
const blackout = parseScenario({ rebalance: { blackout_windows: ['08:30-09:30'] } });

/** Hosts h0..h5 (h0-h3 in az1, h4-h5 in az2); VM i of role r-(i % 3) on host hosts[i]. */
function layout(hosts: number[]): Layout {
  return {
    hosts: Array.from({ length: 6 }, (_, index) => ({
      index,
      name: `h${index}`,
      zone: index < 4 ? 'az1' : 'az2',
      vcpus: 32,
      ramMb: 65_536,
      diskGb: 1000,
    })),
    vms: hosts.map(
      (host, index): SimVm => ({
        index,
        uuid: `vm-${index}`,
        name: `vm-${index}`,
        kind: 'web',
        role: `r-${index % 3}`,
        flavor: { name: 'f', vcpus: 4, ram_mb: 8192, disk_gb: 40 },
        zone: host < 4 ? 'az1' : 'az2',
        host,
        localDisk: true,
        kubernetesNode: null,
        consul: null,
        utilisation: 0.5,
      }),
    ),
  };
}

const move = (vm: number, source: number, dest: number): RunningMigration => ({
  vm,
  source,
  dest,
  startedAt: AT,
  rateMbps: 2500,
});

describe('constraint checks at a migration start', () => {
  const fleet = layout([0, 0, 0, 0, 1, 2, 3, 4, 5]);
  const kinds = (m: RunningMigration, running: RunningMigration[], s = scenario) => {
    const checker = new ConstraintChecker(fleet, s);
    checker.checkStart(
      AT,
      m,
      running,
      fleet.vms.map((v) => v.host),
    );
    return checker.violations.map((v) => v.kind);
  };

  it('passes a move within every limit', () => {
    const m = move(0, 0, 2);
    expect(kinds(m, [m])).toEqual([]);
  });

  it.each([
    ['a move to another zone', move(0, 0, 4), [], 'availability_zone'],
    ['a third VM of a role on a host', move(6, 3, 0), [], 'role_limit'],
    ['a third migration on a host', move(1, 0, 2), [move(0, 0, 3), move(5, 2, 0)], 'host_concurrency'],
    ['a third migration in a zone', move(1, 0, 2), [move(4, 1, 3), move(6, 3, 1)], 'zone_concurrency'],
    [
      'a fourth migration in the fleet',
      move(1, 0, 2),
      [move(7, 4, 5), move(8, 5, 4), move(4, 1, 3)],
      'total_concurrency',
    ],
  ])('flags %s', (_what, m, others, kind) => {
    expect(kinds(m, [...others, m])).toContain(kind);
  });

  it('flags a link carrying more than its bandwidth', () => {
    const m = move(1, 0, 2);
    const relaxed = parseScenario({
      rebalance: { link_bandwidth_mbps: 4000 },
      workflow: { max_migrations_per_host: 5 },
    });
    expect(kinds(m, [move(0, 0, 3), m], relaxed)).toContain('bandwidth');
  });

  it('flags a start inside a blackout window', () => {
    const m = move(0, 0, 2);
    expect(kinds(m, [m], blackout)).toEqual(['blackout']);
  });

  it('flags a move of a VM still cooling down from its last one', () => {
    const checker = new ConstraintChecker(fleet, scenario);
    checker.moved(AT - 3_600_000, move(0, 1, 0));
    const m = move(0, 0, 2);
    checker.checkStart(
      AT,
      m,
      [m],
      fleet.vms.map((v) => v.host),
    );
    expect(checker.violations.map((v) => v.kind)).toEqual(['cooldown']);
  });
});

describe('constraint checks every minute', () => {
  it('flags a host over its RAM once, while it stays over', () => {
    const fleet = layout(Array.from({ length: 9 }, () => 0));
    const checker = new ConstraintChecker(fleet, scenario);
    const hostOf = fleet.vms.map((v) => v.host);
    for (let m = 0; m < 3; m++) checker.checkMinute(AT + m * 60_000, hostUsage(fleet, hostOf, []), hostOf);
    expect(checker.violations.map((v) => [v.kind, v.at])).toEqual([['capacity', new Date(AT).toISOString()]]);
  });

  it('counts a migration in flight against its destination', () => {
    const fleet = layout([0, 0, 0, 0, 0, 0, 0, 0, 1]);
    const checker = new ConstraintChecker(fleet, scenario);
    const hostOf = fleet.vms.map((v) => v.host);
    checker.checkMinute(AT, hostUsage(fleet, hostOf, [[8, 0]]), hostOf);
    expect(checker.violations.map((v) => v.detail)).toEqual(['h0 holds 73728 MiB RAM, more than its 65536']);
  });

  it('flags a VM outside its zone', () => {
    const fleet = layout([0]);
    const checker = new ConstraintChecker(fleet, scenario);
    checker.checkMinute(AT, hostUsage(fleet, [4], []), [4]);
    expect(checker.violations.map((v) => v.kind)).toEqual(['availability_zone']);
  });
});
