import { describe, expect, it } from 'vitest';
import { ComputeFilter } from '../../../lib/engine/filters/ComputeFilter.js';
import { Scheduler } from '../../../lib/engine/scheduler.js';
import { RAMWeigher } from '../../../lib/engine/weighers/RAMWeigher.js';
import { makeSpec } from '../../helpers/factories.js';
import { alternates, fixedWeigher, node, noPlacement, schedule, selected, weighed } from './flow.js';

/** A random source that returns the given values in turn. */
function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length];
}

const five = () => ['a', 'b', 'c', 'd', 'e'].map((n) => node(n));
const weights = { a: 1, b: 5, c: 4, d: 3, e: 2 };

describe('selection (Nova _get_sorted_hosts)', () => {
  it.each([
    [0, 'b'],
    [0.34, 'c'],
    [0.99, 'd'],
  ])('with host_subset_size 3 and random %f picks %s among the best three', async (r, pick) => {
    // Prepare
    const config = noPlacement({ filter_scheduler: { host_subset_size: 3 } });
    // Act
    const d = await schedule(five(), makeSpec(), {
      weighers: [fixedWeigher(weights)],
      config,
      options: { random: () => r },
    });
    // Assess
    expect(selected(d)).toEqual([pick]);
  });

  it('keeps the others in weight order behind a random pick', async () => {
    // Prepare
    const config = noPlacement({ filter_scheduler: { host_subset_size: 3 }, scheduler: { max_attempts: 5 } });
    // Act
    const d = await schedule(five(), makeSpec(), {
      weighers: [fixedWeigher(weights)],
      config,
      options: { random: () => 0.99 },
    });
    // Assess
    expect(alternates(d)).toEqual([['b', 'c', 'e', 'a']]);
  });

  it('picks among all hosts when host_subset_size exceeds their number', async () => {
    // Prepare
    const config = noPlacement({ filter_scheduler: { host_subset_size: 50 } });
    // Act
    const d = await schedule(five(), makeSpec(), {
      weighers: [fixedWeigher(weights)],
      config,
      options: { random: () => 0.99 },
    });
    // Assess
    expect(selected(d)).toEqual(['a']);
  });

  it('reproduces the same picks from the same [placid] seed', async () => {
    // Prepare
    const config = noPlacement({ filter_scheduler: { host_subset_size: 5 }, placid: { seed: 42 } });
    const run = async () => {
      const scheduler = new Scheduler(config, [], [fixedWeigher(weights)]);
      const picks: string[] = [];
      for (let i = 0; i < 20; i++) picks.push(...selected(await scheduler.schedule(five(), makeSpec())));
      return picks;
    };
    // Act
    const [first, second] = [await run(), await run()];
    // Assess
    expect(first).toEqual(second);
    expect(new Set(first).size).toBeGreaterThan(1);
  });

  it('shuffles only the hosts tied with the best weight', async () => {
    // Prepare: a and c tie at the top, b and d below; a shuffle that reverses the tie puts c first.
    const config = noPlacement({
      filter_scheduler: { shuffle_best_same_weighed_hosts: true },
      scheduler: { max_attempts: 4 },
    });
    const hosts = ['a', 'b', 'c', 'd'].map((n) => node(n));
    const tie = fixedWeigher({ a: 9, b: 1, c: 9, d: 5 });
    // Act
    const d = await schedule(hosts, makeSpec(), {
      weighers: [tie],
      config,
      options: { random: sequence(0) },
    });
    // Assess
    expect([selected(d), alternates(d)]).toEqual([['c'], [['a', 'd', 'b']]]);
  });

  it('then picks within host_subset_size from the shuffled order', async () => {
    // Prepare: the shuffle swaps a and c (random 0), then the subset pick takes the second (random 0.5).
    const config = noPlacement({
      filter_scheduler: { shuffle_best_same_weighed_hosts: true, host_subset_size: 2 },
      scheduler: { max_attempts: 4 },
    });
    const hosts = ['a', 'b', 'c', 'd'].map((n) => node(n));
    const tie = fixedWeigher({ a: 9, b: 1, c: 9, d: 5 });
    // Act
    const d = await schedule(hosts, makeSpec(), {
      weighers: [tie],
      config,
      options: { random: sequence(0, 0.5) },
    });
    // Assess
    expect([selected(d), alternates(d)]).toEqual([['a'], [['c', 'd', 'b']]]);
  });

  it('gives a single host weight 0 without weighing it', async () => {
    // Prepare
    const called: string[] = [];
    const weigher = { name: 'W', weigh: () => called.push('w') * 10, multiplier: () => 1 };
    // Act
    const d = await schedule([node('a', { free_ram_mb: 5000 })], makeSpec(), {
      weighers: [RAMWeigher, weigher],
    });
    // Assess
    expect([weighed(d), called]).toEqual([[['a', 0]], []]);
  });

  it('passes every host when no filter is enabled', async () => {
    // Prepare
    const hosts = [node('a', { service: { disabled: true, up: false } }), node('b')];
    // Act
    const d = await schedule(hosts, makeSpec(), { filters: [] });
    // Assess
    expect([weighed(d).map(([h]) => h), d.filter_counts]).toEqual([['a', 'b'], []]);
  });

  it('weighs every host 0 and keeps the input order when no weigher is enabled', async () => {
    // Prepare
    const hosts = [
      node('c', { free_ram_mb: 1 }),
      node('a', { free_ram_mb: 9000 }),
      node('b', { free_ram_mb: 50 }),
    ];
    // Act
    const d = await schedule(hosts, makeSpec(), { filters: [ComputeFilter], weighers: [] });
    // Assess
    expect([weighed(d), selected(d), alternates(d)]).toEqual([
      [
        ['c', 0],
        ['a', 0],
        ['b', 0],
      ],
      ['c'],
      [['a', 'b']],
    ]);
  });

  it('keeps the input order among equal weights in the weighed list', async () => {
    // Prepare
    const hosts = [
      node('a', { free_ram_mb: 10 }),
      node('b', { free_ram_mb: 20 }),
      node('c', { free_ram_mb: 10 }),
      node('d', { free_ram_mb: 20 }),
    ];
    // Act
    const d = await schedule(hosts, makeSpec(), { weighers: [RAMWeigher] });
    // Assess
    expect(weighed(d)).toEqual([
      ['b', 1],
      ['d', 1],
      ['a', 0.5],
      ['c', 0.5],
    ]);
  });
});
