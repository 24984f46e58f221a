import { describe, expect, it } from 'vitest';
import type { Plan } from '../../lib/model/plan.js';
import { planRebalance } from '../../lib/rebalance/planner.js';
import { PlanRun } from '../../lib/rebalance/planRun.js';
import { relieveHost } from '../../lib/rebalance/relief.js';
import type { RebalanceSettings } from '../../lib/rebalance/settings.js';
import { minutesAgo, NOW, settingsWith } from './fixtures.js';
import { contendedFleet, fleetOf } from './planFixtures.js';

const plan = (
  fleet: Parameters<typeof planRebalance>[0]['fleet'],
  settings: Partial<RebalanceSettings> = {},
) => planRebalance({ fleet, settings: settingsWith(settings) });

const skipOf = (p: Plan, uuid: string) => p.skipped.find((s) => s.instance_uuid === uuid);

describe('planRebalance: relief with the fewest bytes', () => {
  it('moves one victim when its demand is enough, and the others recover in place', async () => {
    // Act
    const p = await plan(contendedFleet());
    // Assess
    expect(p.migrations).toHaveLength(1);
    expect(p.migrations[0]).toMatchObject({ source_host: 'src', kind: 'victim', wave: 1 });
    const stayed = p.skipped.filter((s) => s.code === 'recovers_without_moving');
    expect(stayed).toHaveLength(2);
    expect(stayed[0].reason).toMatch(/^recovers without moving: predicted steal 0\.0% after the plan/);
    expect(p.summary).toMatchObject({ suffering_vms: 3, moved: 1, suffering_left_predicted: 0 });
  });

  it('prefers the VM with the most relief per byte (small RAM) among the victims', async () => {
    // Prepare: web-2 has half the RAM of the others.
    const fleet = contendedFleet();
    const web2 = fleet.instances.find((i) => i.uuid === 'web-2');
    if (web2) web2.flavor.memory_mb = 4096;
    // Act
    const p = await plan(fleet);
    // Assess
    expect(p.migrations.map((m) => m.instance_uuid)).toEqual(['web-2']);
  });

  it('reports its bytes against the lower bound, equal here', async () => {
    // Act
    const p = await plan(contendedFleet());
    // Assess
    expect(p.summary.bytes).toBe(8 * 2 ** 30);
    expect(p.summary.lower_bound_bytes).toBe(8 * 2 ** 30);
  });

  it('returns an empty plan when nothing suffers', async () => {
    // Prepare
    const fleet = fleetOf([{ host: 'a' }, { host: 'b' }], [{ uuid: 'vm', host: 'a', busy: 0.5, load: 2 }]);
    // Act
    const p = await plan(fleet);
    // Assess
    expect(p.migrations).toEqual([]);
    expect(p.skipped).toEqual([]);
    expect(p.summary.suffering_vms).toBe(0);
  });
});

describe('relieveHost: the search budget', () => {
  it('falls back to the greedy by relief per byte once the plan has spent its search budget', async () => {
    // Prepare
    const run = new PlanRun({ fleet: contendedFleet(), settings: settingsWith() });
    run.searchBudget.used = run.searchBudget.cells;
    // Act
    for (const host of run.hostsToRelieve()) await relieveHost(run, host);
    // Assess: the same single move as the exact search here, said to come from the greedy.
    expect(run.migrations).toHaveLength(1);
    expect(run.migrations[0].reason).toContain('greedy: the plan spent its search budget');
  });

  it('uses the exact search while the budget lasts', async () => {
    // Prepare
    const run = new PlanRun({ fleet: contendedFleet(), settings: settingsWith() });
    // Act
    for (const host of run.hostsToRelieve()) await relieveHost(run, host);
    // Assess
    expect(run.migrations[0].reason).toContain('part of the set of moves with the fewest bytes');
    expect(run.searchBudget.used).toBeGreaterThan(0);
  });
});

describe('planRebalance: destinations through the engine', () => {
  it('stays in the availability zone and says which filters removed the candidates', async () => {
    // Prepare: the only calm host is in another zone.
    const fleet = fleetOf(
      [{ host: 'src' }, { host: 'other', az: 'az2' }],
      [
        { uuid: 'web-1', host: 'src', busy: 0.9, load: 1.5 },
        { uuid: 'web-2', host: 'src', busy: 0.9, load: 1.5 },
        { uuid: 'web-3', host: 'src', busy: 0.9, load: 1.5 },
        { uuid: 'batch', host: 'src', busy: 0.95, load: 0.9, vcpus: 8 },
      ],
    );
    // Act
    const p = await plan(fleet);
    // Assess
    expect(p.migrations).toEqual([]);
    expect(skipOf(p, 'web-1')).toMatchObject({ code: 'no_destination' });
    expect(skipOf(p, 'web-1')?.reason).toContain('no other host in availability zone az1');
  });

  it('counts the eliminations per filter when hosts of the zone are all refused', async () => {
    // Prepare: d1 is busy (adding a web VM would make it steal), d2 has too little RAM.
    const fleet = fleetOf(
      [{ host: 'src' }, { host: 'd1' }, { host: 'd2', ramGib: 8 }],
      [
        { uuid: 'web-1', host: 'src', busy: 0.9, load: 1.5 },
        { uuid: 'web-2', host: 'src', busy: 0.9, load: 1.5 },
        { uuid: 'web-3', host: 'src', busy: 0.9, load: 1.5 },
        { uuid: 'batch', host: 'src', busy: 0.95, load: 0.9, vcpus: 8 },
        { uuid: 'busy', host: 'd1', busy: 0.9, load: 0.5, vcpus: 16, ramGib: 4 },
      ],
    );
    // Act
    const p = await plan(fleet);
    // Assess
    const reason = skipOf(p, 'web-1')?.reason ?? '';
    expect(reason).toContain('no destination: of the 2 other host(s) of az1');
    expect(reason).toContain('HostStealFilter removed 1 (e.g. d1: predicted steal');
    expect(reason).toContain('Placement:MEMORY_MB removed 1 (e.g. d2:');
    expect(reason).toContain('not considered: the source src');
  });

  it('keeps to max_same_role_per_host, counting the moves planned before', async () => {
    // Prepare: two sources each need one web VM moved; the single destination already runs one web VM.
    const victims = (host: string) => [
      { uuid: `${host}-web-1`, host, busy: 0.9, load: 1.5, role: 'web' },
      { uuid: `${host}-web-2`, host, busy: 0.9, load: 1.5, role: 'web' },
      { uuid: `${host}-web-3`, host, busy: 0.9, load: 1.5, role: 'web' },
      { uuid: `${host}-batch`, host, busy: 0.95, load: 0.9, vcpus: 8 },
    ];
    const fleet = fleetOf(
      [{ host: 's1' }, { host: 's2' }, { host: 'dest' }],
      [...victims('s1'), ...victims('s2'), { uuid: 'web-dest', host: 'dest', busy: 0.1, role: 'web' }],
    );
    // Act
    const p = await plan(fleet, { max_same_role_per_host: 2 });
    // Assess
    expect(p.migrations).toHaveLength(1);
    expect(p.skipped.filter((s) => s.code === 'no_destination')[0].reason).toContain(
      'RoleSpreadFilter removed 1',
    );
  });

  it('never moves a VM back to a host it left recently (no ping-pong)', async () => {
    // Prepare: web VMs came from d1 two hours ago (cooldown over at 1 h).
    const history = ['web-1', 'web-2', 'web-3'].map((uuid) => ({
      instance_uuid: uuid,
      source_host: 'd1',
      dest_host: 'src',
      at: minutesAgo(120),
    }));
    const base = contendedFleet(['d1', 'd2']);
    const fleet = { ...base, history };
    // Act
    const p = await plan(fleet, { cooldown_hours: 1 });
    // Assess
    expect(p.migrations).toHaveLength(1);
    expect(p.migrations[0].dest_host).toBe('d2');
  });
});

describe('planRebalance: reasons not to move', () => {
  it('skips a VM in cooldown, and the next best moves instead', async () => {
    // Prepare
    const fleet = contendedFleet();
    const web1 = fleet.instances.find((i) => i.uuid === 'web-1');
    if (web1) web1.last_migrated_at = minutesAgo(30);
    // Act
    const p = await plan(fleet);
    // Assess
    expect(p.migrations.map((m) => m.instance_uuid)).not.toContain('web-1');
    expect(skipOf(p, 'web-1')?.reason).toContain('cooldown');
  });

  it.each([
    ['recommend', 'refused', false],
    ['approve', 'planned', true],
  ] as const)(
    'in %s mode, a block migration above max_block_migration_gb is %s',
    async (mode, outcome, flagged) => {
      // Prepare: local disks of 40 GB, limit 10 GB.
      const fleet = contendedFleet(['d1'], { shared: false });
      // Act
      const p = await plan(fleet, { mode, max_block_migration_gb: 10 });
      // Assess
      if (outcome === 'refused') {
        expect(p.migrations).toEqual([]);
        expect(skipOf(p, 'web-1')?.code).toBe('block_migration_too_large');
      } else {
        expect(p.migrations[0].needs_approval).toBe(flagged);
        expect(p.status).toBe('pending_approval');
      }
    },
  );

  it('skips moves whose relief is below min_benefit_percent', async () => {
    // Act
    const p = await plan(contendedFleet(['d1']), { min_benefit_percent: 50 });
    // Assess
    expect(p.migrations).toEqual([]);
    expect(skipOf(p, 'web-1')).toMatchObject({ code: 'too_little_benefit' });
    expect(skipOf(p, 'web-1')?.reason).toContain('below min_benefit_percent 50');
  });

  it('skips every move when the plan would expire inside a blackout window', async () => {
    // Act: now (12:00 UTC) is inside 11:30-13:00, longer than the plan's 30 minutes.
    const p = await plan(contendedFleet(), {
      blackout_windows: [{ text: '11:30-13:00', start: 690, end: 780 }],
    });
    // Assess
    expect(p.migrations).toEqual([]);
    expect(skipOf(p, 'web-1')).toMatchObject({ code: 'blackout' });
  });

  it('defers the first wave past a short blackout window', async () => {
    // Act
    const p = await plan(contendedFleet(), {
      blackout_windows: [{ text: '11:55-12:05', start: 715, end: 725 }],
    });
    // Assess
    expect(p.migrations[0].starts_at).toBe('2026-12-01T12:05:00.000Z');
  });
});

describe('planRebalance: noisy neighbours', () => {
  it('moves the noisy neighbour instead when that relieves the victims for fewer bytes', async () => {
    // Prepare: the web VMs hold 64 GiB each; the busy batch VM 16 GiB on shared storage.
    const fleet = contendedFleet(['d1', 'd2'], { ramGib: 64 });
    const batch = fleet.instances.find((i) => i.uuid === 'batch-1');
    if (batch) Object.assign(batch, { shared_storage: true, flavor: { ...batch.flavor, memory_mb: 16384 } });
    // Act
    const p = await plan(fleet, { noisy_neighbour_moves: true });
    // Assess
    expect(p.migrations).toHaveLength(1);
    expect(p.migrations[0]).toMatchObject({ instance_uuid: 'batch-1', kind: 'noisy_neighbour' });
    expect(p.skipped.filter((s) => s.code === 'recovers_without_moving')).toHaveLength(3);
  });

  it('judges a move of a relief set by what the whole set does to its host (min_benefit_percent)', async () => {
    // Prepare: 18.2 vCPUs of demand on 16 (12.1 % lost). Two 1-vCPU neighbours (1 GiB, 0.9 vCPU
    // each) are the cheapest relief; the first alone takes the host to 7.5 %, 4.6 points (below
    // min_benefit_percent 5), the pair to 2.5 %.
    const fleet = fleetOf(
      [{ host: 'src' }, { host: 'd1' }, { host: 'd2' }, { host: 'd3' }],
      [
        ...[1, 2, 3].map((i) => ({
          uuid: `web-${i}`,
          host: 'src',
          busy: 0.9,
          load: 1.5,
          ramGib: 64,
          role: 'web',
        })),
        { uuid: 'batch', host: 'src', busy: 0.95, load: 0.9, ramGib: 32, role: 'batch' },
        ...[1, 2, 3, 4].map((i) => ({
          uuid: `tiny-${i}`,
          host: 'src',
          busy: 0.9,
          load: 0.5,
          vcpus: 1,
          ramGib: 1,
          shared: true,
          role: `tiny-${i}`,
        })),
        ...[1, 2, 3].map((i) => ({ uuid: `calm-${i}`, host: `d${i}`, busy: 0.2, role: 'cache' })),
      ],
    );
    // Act
    const p = await plan(fleet, { noisy_neighbour_moves: true });
    // Assess
    expect(p.migrations.map((m) => m.instance_uuid).sort()).toEqual(['tiny-1', 'tiny-2']);
    expect(p.migrations[0].reason).toContain("with the rest of its set, src's steal drops by 9.6 points");
    expect(p.summary).toMatchObject({
      suffering_left_predicted: 0,
      bytes: 2 * 2 ** 30,
      lower_bound_bytes: 2 * 2 ** 30,
    });
  });

  it('moves victims by default, as operators expect', async () => {
    // Prepare
    const fleet = contendedFleet(['d1', 'd2'], { ramGib: 64 });
    // Act
    const p = await plan(fleet);
    // Assess
    expect(p.migrations.every((m) => m.kind === 'victim')).toBe(true);
  });
});

describe('planRebalance: the plan', () => {
  it.each([
    ['recommend', 'recommended'],
    ['approve', 'pending_approval'],
    ['auto', 'approved'],
  ] as const)('carries %s mode as status %s', async (mode, status) => {
    // Act
    const p = await plan(contendedFleet(), { mode });
    // Assess
    expect(p).toMatchObject({ mode, status });
  });

  it('expires plan_ttl_minutes after it was made', async () => {
    // Act
    const p = await plan(contendedFleet(), { plan_ttl_minutes: 10 });
    // Assess
    expect(p.created_at).toBe(NOW.toISOString());
    expect(p.expires_at).toBe('2026-12-01T12:10:00.000Z');
  });

  it('gets the same plan id from the same inputs, and another from another time', async () => {
    // Act
    const a = await plan(contendedFleet());
    const b = await plan(contendedFleet());
    const c = await plan({ ...contendedFleet(), now: new Date(NOW.getTime() + 60_000) });
    // Assess
    expect(a.plan_id).toMatch(/^plan-[0-9a-f]{20}$/);
    expect(b.plan_id).toBe(a.plan_id);
    expect(c.plan_id).not.toBe(a.plan_id);
  });
});
