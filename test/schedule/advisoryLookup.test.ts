import { describe, expect, it } from 'vitest';
import { Fleet } from '../../lib/engine/fleet.js';
import { createScheduler } from '../../lib/engine/registry.js';
import { adviseAmong, fleetLookup } from '../../lib/schedule/advisory.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

/** One libvirt host per name, and an ironic-style host holding many nodes. */
function mixedFleet(): Fleet {
  const room = { vcpus_total: 16, free_disk_mb: 100_000, total_usable_disk_gb: 200 };
  const single = ['cmp1', 'cmp2', 'cmp3'].map((name, i) =>
    makeHost({
      ...room,
      host: name,
      nodename: name,
      free_ram_mb: 4096 * (i + 1),
      total_usable_ram_mb: 16_384,
    }),
  );
  const ironic = Array.from({ length: 20 }, (_, i) =>
    makeHost({
      ...room,
      host: 'ironic',
      nodename: `node-${i}`,
      free_ram_mb: 1024 * (i + 1),
      total_usable_ram_mb: 32_768,
    }),
  );
  return Fleet.from([...single, ...ironic]);
}

describe('fleetLookup', () => {
  it('finds a host with one node by host and nodename, and no other node of it', () => {
    // Prepare
    const fleet = mixedFleet();
    const lookup = fleetLookup(fleet);
    // Act
    const found = lookup('cmp2', 'cmp2');
    const wrongNode = lookup('cmp2', 'cmp3');
    // Assess
    expect(found).toBe(fleet.hosts.find((h) => h.host === 'cmp2'));
    expect(wrongNode).toBeUndefined();
    expect(lookup('ghost', 'ghost')).toBeUndefined();
  });

  it('finds every node of a host with many nodes (the keyed index), and no node it lacks', () => {
    // Prepare
    const fleet = mixedFleet();
    const lookup = fleetLookup(fleet);
    // Act
    const found = Array.from({ length: 20 }, (_, i) => lookup('ironic', `node-${i}`));
    // Assess
    expect(found).toEqual(fleet.hosts.filter((h) => h.host === 'ironic'));
    expect(lookup('ironic', 'node-20')).toBeUndefined();
    expect(lookup('ironic', 'cmp1')).toBeUndefined();
  });
});

describe('adviseAmong over a fleet', () => {
  it("decides on the fleet's own host objects (the candidates' fleet copies none) and answers in the order sent", async () => {
    // Prepare
    const fleet = mixedFleet();
    const sent = [
      { host: 'ironic', nodename: 'node-7' },
      { host: 'cmp3', nodename: 'cmp3' },
      { host: 'cmp1', nodename: 'cmp1' },
    ];
    const scheduler = createScheduler(makeConfig({}));
    // Act
    const { answer, engine } = await adviseAmong(
      fleet,
      makeSpec({ flavor: { name: 'small', vcpus: 1, memory_mb: 2048, root_gb: 1 } }),
      sent,
      scheduler,
      new Date('2026-12-01T12:00:00Z'),
    );
    // Assess
    expect(answer.candidates.map((c) => [c.host, c.nodename, c.passes])).toEqual([
      ['ironic', 'node-7', true],
      ['cmp3', 'cmp3', true],
      ['cmp1', 'cmp1', true],
    ]);
    const weighed = (engine.weighed ?? []).map((w) => w.host);
    expect(weighed).toHaveLength(3);
    for (const host of weighed) expect(fleet.hosts).toContain(host);
  });
});

describe('ScheduleDecision.weightsByHost', () => {
  const config = makeConfig({
    filter_scheduler: { weight_classes: ['nova.scheduler.weights.all_weighers'] },
  });

  it.each([
    ['explained', { explain: true }],
    ['fast path with weights', { explain: false, weights: true }],
  ])('gives every weighed host its weight from the ranked list (%s)', async (_name, options) => {
    // Prepare
    const fleet = mixedFleet();
    // Act
    const decision = await createScheduler(config).schedule(
      fleet,
      makeSpec({ flavor: { name: 'big', vcpus: 1, memory_mb: 6000, root_gb: 1 } }),
      {
        ...options,
        now: new Date('2026-12-01T12:00:00Z'),
      },
    );
    // Assess
    const ranked = new Map((decision.weighed ?? []).map((w) => [w.host, w.weight]));
    expect(ranked.size).toBeGreaterThan(0);
    expect(ranked.size).toBeLessThan(fleet.hosts.length);
    expect(decision.weightsByHost?.()).toEqual(ranked);
    // rankedWeights is `weighed` without breakdowns: same hosts, same order, same weights
    const order = (decision.weighed ?? []).map((w) => [w.host.nodename, w.weight]);
    expect(decision.rankedWeights?.()?.map((w) => [w.host.nodename, w.weight])).toEqual(order);
  });

  it('is null when the request never got to weighing', async () => {
    // Act
    const decision = await createScheduler(config).schedule(
      mixedFleet(),
      makeSpec({ flavor: { name: 'huge', vcpus: 1, memory_mb: 1_000_000, root_gb: 1 } }),
      {
        explain: false,
        weights: true,
        now: new Date('2026-12-01T12:00:00Z'),
      },
    );
    // Assess
    expect(decision.error).not.toBeNull();
    expect(decision.weightsByHost?.()).toBeNull();
    expect(decision.rankedWeights?.()).toBeNull();
  });
});
