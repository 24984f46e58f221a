import { describe, expect, it } from 'vitest';
import { decisionJson } from '../../lib/engine/decisionJson.js';
import { createScheduler } from '../../lib/engine/registry.js';
import { type ScheduleOutcome, scheduleRequest } from '../../lib/schedule/core.js';
import { RequestIdConflictError } from '../../lib/schedule/errors.js';
import type { FleetStore } from '../../lib/store/fleetStore.js';
import { at } from '../store/fixtures.js';
import {
  depsFor,
  hostReport,
  msAfterNow,
  NOW,
  putHosts,
  request,
  testConfig,
  usedRam,
  useStoreFixture,
} from './fixtures.js';

const db = useStoreFixture();

/** Every pending claim in the fleet, as `host/instance`. */
async function allClaims(): Promise<string[]> {
  const hosts = await db.store.listHosts();
  return hosts.flatMap((x) => Object.keys(x.claims).map((id) => `${x.state.host}/${id}`)).sort();
}

describe('scheduleRequest', () => {
  it('places on the host with the most free RAM, claims it and records the decision', async () => {
    // Prepare
    await putHosts(db.store, 3, 8192);
    await db.store.putHostReport(hostReport('big', 16_384));
    // Act
    const outcome = await scheduleRequest(request('r-1'), depsFor(db.store));
    // Assess
    expect(outcome).toMatchObject({ replayed: false, claim_conflicts: 0 });
    expect(outcome.decision.selected).toEqual([{ host: 'big', nodename: 'big' }]);
    expect(await usedRam({ store: db.store }, 'big')).toBe(2048);
    expect((await db.store.getDecision('r-1'))?.decision).toMatchObject({ decision: outcome.decision });
  });

  it('answers with the JSON of `placid schedule --json` for the same fleet', async () => {
    // Prepare: distinct free RAM, so no tie depends on host order; one host too small
    for (const [name, ram] of [
      ['a', 4096],
      ['b', 8192],
      ['c', 6144],
      ['tiny', 1024],
    ] as const) {
      await db.store.putHostReport(hostReport(name, ram));
    }
    const spec = request('r-json');
    const hosts = (await db.store.listHosts()).map((x) => x.state);
    const expected = decisionJson(
      await createScheduler(testConfig()).schedule(hosts, spec, { explain: true, now: NOW }),
      1,
    );
    // Act
    const outcome = await scheduleRequest(spec, depsFor(db.store));
    // Assess
    expect(outcome.decision).toEqual(expected);
    expect(outcome.decision.eliminated.map((e) => e.host)).toEqual(['tiny']);
  });

  it("hands the engine's decision on only to a caller that keeps it (the others' is released)", async () => {
    // Prepare
    await db.store.putHostReport(hostReport('a', 4096));
    await db.store.putHostReport(hostReport('tiny', 1024));
    // Act
    const released = await scheduleRequest(request('r-drop'), depsFor(db.store));
    const kept = await scheduleRequest(request('r-keep'), { ...depsFor(db.store), keepEngine: true });
    // Assess
    expect(released.engine).toBeUndefined();
    expect(kept.engine?.eliminated().map((e) => e.host)).toEqual(['tiny']);
  });

  it('replays a redelivered request: the same decision, nothing claimed twice', async () => {
    // Prepare
    await putHosts(db.store, 3, 8192);
    const deps = depsFor(db.store);
    const first = await scheduleRequest(request('r-again'), deps);
    db.h.setNow(msAfterNow(30_000));
    // Act
    const second = await scheduleRequest(request('r-again'), depsFor(db.store));
    // Assess
    expect(second).toMatchObject({ replayed: true, decided_at: first.decided_at, decision: first.decision });
    expect(await allClaims()).toEqual([`${first.placements[0].host}/r-again-instance-0`]);
  });

  it('refuses a request id that was decided for a different request', async () => {
    // Prepare
    await putHosts(db.store, 1, 8192);
    await scheduleRequest(request('r-reused'), depsFor(db.store));
    // Act
    const reused = scheduleRequest(
      request('r-reused', { flavor: { name: 'm1.large', vcpus: 2, memory_mb: 4096 } }),
      depsFor(db.store),
    );
    // Assess
    await expect(reused).rejects.toBeInstanceOf(RequestIdConflictError);
  });

  it('records NoValidHost with its explanation when nothing fits', async () => {
    // Prepare
    await putHosts(db.store, 2, 1024);
    // Act
    const outcome = await scheduleRequest(request('r-big'), depsFor(db.store));
    // Assess
    expect(outcome.decision.error?.type).toBe('NoValidHost');
    expect(outcome.decision.eliminated).toHaveLength(2);
    expect((await db.store.getDecision('r-big'))?.decision).toMatchObject({ decision: outcome.decision });
  });

  it('gives back the claims of a multi-create that ran out of hosts', async () => {
    // Prepare: room for one 2 GiB instance on each of two hosts, three requested
    await putHosts(db.store, 2, 2048);
    // Act
    const outcome = await scheduleRequest(request('r-three', { num_instances: 3 }), depsFor(db.store));
    // Assess
    expect(outcome.decision.error?.type).toBe('NoValidHost');
    expect(await allClaims()).toEqual([]);
  });

  it('tries the next alternate when another scheduler filled the best host after the snapshot was read', async () => {
    // Prepare: the snapshot sees cmp-best empty, then another scheduler takes all of it
    await putHosts(db.store, 2, 4096);
    await putHosts(db.store, 1, 8192, 'best');
    const deps = depsFor(db.store, testConfig(), { maxAgeMs: 60_000 });
    await deps.snapshot.refresh();
    await db.store.claimResources(
      'best0',
      'best0',
      { vcpus: 1, memory_mb: 8192, disk_gb: 0 },
      { memory_mb: 8192 },
    );
    // Act
    const outcome = await scheduleRequest(request('r-race'), deps);
    // Assess
    expect(outcome.claim_conflicts).toBe(1);
    expect(outcome.decision.selected[0].host).toMatch(/^cmp/);
    expect(await usedRam({ store: db.store }, 'best0')).toBe(8192);
  });
});

describe('stale hosts', () => {
  it('never places on a host whose last report is older than service_down_time (it is down)', async () => {
    // Prepare: the roomiest host last reported 5 minutes ago; service_down_time is Nova's 60 s
    await db.store.putHostReport(hostReport('stale-big', 65_536, at(-5)));
    await db.store.putHostReport(hostReport('fresh-small', 4096, at(-0.5)));
    // Act
    const outcome = await scheduleRequest(request('r-stale'), depsFor(db.store));
    // Assess
    expect(outcome.decision.selected).toEqual([{ host: 'fresh-small', nodename: 'fresh-small' }]);
    expect(outcome.decision.eliminated.map((e) => [e.host, e.filter])).toEqual([
      ['stale-big', 'ComputeFilter'],
    ]);
  });

  it('counts a host as up again with a longer [DEFAULT] service_down_time', async () => {
    // Prepare
    await db.store.putHostReport(hostReport('stale-big', 65_536, at(-5)));
    const config = testConfig();
    config.DEFAULT.service_down_time = 600;
    // Act
    const outcome = await scheduleRequest(request('r-stale-ok'), depsFor(db.store, config));
    // Assess
    expect(outcome.decision.selected).toEqual([{ host: 'stale-big', nodename: 'stale-big' }]);
  });
});

describe('concurrent schedulers', () => {
  it('place 20 parallel requests on room for 10 without overcommitting any host', async () => {
    // Prepare: 5 hosts with room for two 2 GiB instances each; 20 Lambdas, each with its own warm snapshot
    const hosts = await putHosts(db.store, 5, 4096);
    const lambdas = Array.from({ length: 20 }, () => depsFor(db.store));
    await Promise.all(lambdas.map((d) => d.snapshot.refresh()));
    // Act
    const outcomes = await Promise.all(
      lambdas.map((deps, i) => scheduleRequest(request(`r-par-${i}`), deps)),
    );
    // Assess
    const placed = outcomes.filter((o) => !o.decision.error);
    const refused = outcomes.filter((o) => o.decision.error);
    expect(placed).toHaveLength(10);
    expect(refused.every((o) => o.decision.error?.type === 'NoValidHost')).toBe(true);
    for (const host of hosts) expect(await usedRam({ store: db.store }, host)).toBe(4096);
    expect(placed.some((o) => o.claim_conflicts > 0)).toBe(true);
  });

  it("stop at Placement's (total - reserved) × ratio, not total × ratio, with warm snapshots", async () => {
    // Prepare: one host with 16 vCPUs, 4 reserved, ratio 4: room for 48 vCPUs, i.e. 12 four-vCPU
    // instances; 16 Lambdas whose snapshots all saw the host empty
    const [host] = await putHosts(db.store, 1, 65_536, 'resv');
    const config = testConfig();
    config.DEFAULT.reserved_host_cpus = 4;
    config.DEFAULT.initial_cpu_allocation_ratio = 4;
    const lambdas = Array.from({ length: 16 }, () => depsFor(db.store, config));
    await Promise.all(lambdas.map((d) => d.snapshot.refresh()));
    const fourCpus = { flavor: { name: 'c4', vcpus: 4, memory_mb: 512 } };
    // Act
    const outcomes = await Promise.all(
      lambdas.map((deps, i) => scheduleRequest(request(`r-resv-${i}`, fourCpus), deps)),
    );
    // Assess
    expect(outcomes.filter((o) => !o.decision.error)).toHaveLength(12);
    expect((await db.store.getHost(host))?.state.vcpus_used).toBe(48);
  });

  it('keep one claim when the same request is delivered to two schedulers at once', async () => {
    // Prepare
    await putHosts(db.store, 4, 8192);
    const [a, b] = [depsFor(db.store), depsFor(db.store)];
    // Act
    const outcomes: ScheduleOutcome[] = await Promise.all([
      scheduleRequest(request('r-dup'), a),
      scheduleRequest(request('r-dup'), b),
    ]);
    // Assess
    expect(outcomes[0].decision).toEqual(outcomes[1].decision);
    expect(outcomes.map((o) => o.replayed).sort()).toEqual([false, true]);
    expect(await allClaims()).toEqual([`${outcomes[0].placements[0].host}/r-dup-instance-0`]);
  });

  it("give back the loser's claim when two deliveries of one request chose different hosts", async () => {
    // Prepare: A places first; B passed its "already decided?" check before A recorded, and stacks
    // instances (negative RAM multiplier), so it claims another host
    await db.store.putHostReport(hostReport('roomy', 8192));
    await db.store.putHostReport(hostReport('snug', 4096));
    const first = await scheduleRequest(request('r-race-dup'), depsFor(db.store));
    let checks = 0;
    const late = Object.assign(Object.create(db.store) as FleetStore, {
      getDecision: (id: string) => (checks++ === 0 ? Promise.resolve(undefined) : db.store.getDecision(id)),
    });
    const stacking = testConfig();
    stacking.filter_scheduler.ram_weight_multiplier = -1;
    // Act
    const second = await scheduleRequest(request('r-race-dup'), depsFor(late, stacking));
    // Assess
    expect(second).toMatchObject({ replayed: true, decision: first.decision });
    expect(await allClaims()).toEqual(['roomy/r-race-dup-instance-0']);
  });
});
