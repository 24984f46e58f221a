import { describe, expect, it } from 'vitest';
import { RAMWeigher } from '../../../lib/engine/weighers/RAMWeigher.js';
import type { HostState } from '../../../lib/model/hostState.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { alternates, fixedWeigher, node, schedule, selected } from './flow.js';

/** 40 hosts whose weights tie in groups of four: h00..h03 weigh 10, h04..h07 weigh 9, ... */
function tiedFleet(): { hosts: HostState[]; weights: Record<string, number> } {
  const hosts: HostState[] = [];
  const weights: Record<string, number> = {};
  for (let i = 0; i < 40; i++) {
    const name = `h${String(i).padStart(2, '0')}`;
    hosts.push(node(name));
    weights[name] = 10 - Math.floor(i / 4);
  }
  // Shuffle the input so the ranking really has to sort (and keep input order among ties).
  hosts.reverse();
  return { hosts, weights };
}

describe('claims (Nova: try the sorted hosts in order until one claim succeeds)', () => {
  it('falls through to the next host when a claim fails', async () => {
    // Prepare
    const hosts = [
      node('a', { free_ram_mb: 9000 }),
      node('b', { free_ram_mb: 8000 }),
      node('c', { free_ram_mb: 7000 }),
    ];
    // Act
    const d = await schedule(hosts, makeSpec(), {
      weighers: [RAMWeigher],
      options: { claim: (h) => h.host === 'c' },
    });
    // Assess
    expect(selected(d)).toEqual(['c']);
  });

  it.each([false, true])(
    'walks the full stable ranking past the short list (explain %s)',
    async (explain) => {
      // Prepare: every claim fails except on h29, ranked 31st, far past the short list the engine
      // ranks when it does not explain (host_subset_size + alternates + a few spares).
      const { hosts, weights } = tiedFleet();
      const tried: string[] = [];
      const claim = (h: HostState) => {
        tried.push(h.host);
        return h.host === 'h29';
      };
      // Act
      const d = await schedule(hosts, makeSpec(), {
        weighers: [fixedWeigher(weights)],
        options: { claim, explain },
      });
      // Assess: ties keep input order, which is reversed (h03 before h00).
      const expected = [];
      for (let g = 0; g < 10; g++)
        for (let k = 3; k >= 0; k--) expected.push(`h${String(g * 4 + k).padStart(2, '0')}`);
      expect([selected(d), tried]).toEqual([['h29'], expected.slice(0, expected.indexOf('h29') + 1)]);
    },
  );

  it('takes the alternates from the full ranking after a long fall-through', async () => {
    // Prepare
    const { hosts, weights } = tiedFleet();
    // Act
    const d = await schedule(hosts, makeSpec(), {
      weighers: [fixedWeigher(weights)],
      options: { claim: (h) => h.host === 'h29', explain: false },
    });
    // Assess: the hosts that lost their claims come first, as in Nova's list.
    expect(alternates(d)).toEqual([['h03', 'h02']]);
  });

  it('fails with NoValidHost when every claim fails', async () => {
    // Act
    const d = await schedule([node('a'), node('b')], makeSpec(), { options: { claim: () => false } });
    // Assess
    expect([d.error?.message, d.placements]).toEqual([
      'No valid host was found. There are not enough hosts available.',
      [],
    ]);
  });

  it('claims each instance of a multi-create in order', async () => {
    // Prepare
    const claimed: string[] = [];
    // Act
    await schedule([node('a')], makeSpec({ instance_uuids: ['u1', 'u2'] }), {
      options: {
        claim: (h, _s, uuid) => {
          claimed.push(`${uuid}@${h.host}`);
          return true;
        },
      },
    });
    // Assess
    expect(claimed).toEqual(['u1@a', 'u2@a']);
  });

  it('refuses, like Placement, a second instance that no longer fits the host', async () => {
    // Prepare: 8192 MB total, 512 reserved: room for one 4096 MB guest next to 2048 MB used, not two.
    const host = (name: string, free: number) =>
      node(name, {
        total_usable_ram_mb: 8192,
        free_ram_mb: free,
        vcpus_total: 8,
        total_usable_disk_gb: 100,
        free_disk_mb: 102400,
      });
    const hosts = [host('a', 5632), host('b', 4600)];
    const spec = makeSpec({ num_instances: 2, flavor: { name: 'f', vcpus: 1, memory_mb: 4096, root_gb: 1 } });
    // Act
    const d = await schedule(hosts, spec, { weighers: [fixedWeigher({ a: 2, b: 1 })], config: makeConfig() });
    // Assess: a still ranks first for the second instance, but its claim fails.
    expect(selected(d)).toEqual(['a', 'b']);
  });

  it('fails the multi-create when Placement would refuse every remaining claim', async () => {
    // Prepare
    const hosts = [
      node('a', { total_usable_ram_mb: 8192, free_ram_mb: 7680, vcpus_total: 8, total_usable_disk_gb: 100 }),
    ];
    const spec = makeSpec({ num_instances: 2, flavor: { name: 'f', vcpus: 1, memory_mb: 4096 } });
    // Act
    const d = await schedule(hosts, spec, { config: makeConfig() });
    // Assess
    expect(d.error?.message).toBe('No valid host was found. There are not enough hosts available.');
  });

  it('counts swap as Placement disk when it emulates a claim', async () => {
    // Prepare: 3 GB disk left; each guest takes 1 GB root + 1 GB swap in Placement (only the root
    // in Nova's host-state consumption), so the second guest does not fit.
    const hosts = [
      node('a', {
        total_usable_ram_mb: 8192,
        free_ram_mb: 7680,
        vcpus_total: 8,
        total_usable_disk_gb: 3,
        free_disk_mb: 3072,
      }),
    ];
    const spec = makeSpec({
      num_instances: 2,
      flavor: { name: 'f', vcpus: 1, memory_mb: 64, root_gb: 1, swap: 1024 },
    });
    // Act
    const d = await schedule(hosts, spec, { config: makeConfig() });
    // Assess
    expect(d.error?.type).toBe('NoValidHost');
  });
});
