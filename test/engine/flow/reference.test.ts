import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RAMWeigher } from '../../../lib/engine/weighers/RAMWeigher.js';
import type { HostState } from '../../../lib/model/hostState.js';
import { makeSpec } from '../../helpers/factories.js';
import { alternates, node, noPlacement, schedule, selected } from './flow.js';

/**
 * Nova's single-instance flow written out plainly (full stable sort, random pick in the subset,
 * claims in list order, alternates from the same cell), to check the engine's short-list ranking
 * against it on random fleets.
 */
function novaReference(
  hosts: HostState[],
  subsetSize: number,
  numAlts: number,
  pick: number,
  claimable: ReadonlySet<string>,
): { selected: string[]; alternates: string[][] } {
  const max = Math.max(0, ...hosts.map((h) => h.free_ram_mb));
  const weight = (h: HostState) => (hosts.length <= 1 || max <= 0 ? 0 : Math.max(h.free_ram_mb, 0) / max);
  const sorted = hosts
    .map((h, i) => ({ h, i, w: weight(h) }))
    .sort((a, b) => b.w - a.w || a.i - b.i)
    .map((x) => x.h);
  const subset = sorted.slice(0, Math.min(subsetSize, sorted.length));
  const chosen = subset[Math.floor(pick * subset.length)];
  const list = [chosen, ...sorted.filter((h) => h !== chosen)];
  const claimed = list.find((h) => claimable.has(h.host));
  if (!claimed) return { selected: [], alternates: [] };
  const alts = list.filter((h) => h !== claimed && h.cell_uuid === claimed.cell_uuid).slice(0, numAlts);
  return { selected: [claimed.host], alternates: [alts.map((h) => h.host)] };
}

const fleetArb = fc.array(
  fc.record({
    ram: fc.integer({ min: 0, max: 12 }),
    cell: fc.oneof({ weight: 1, arbitrary: fc.constant('c1') }, { weight: 9, arbitrary: fc.constant('c2') }),
    claimable: fc.oneof(
      { weight: 9, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
  }),
  { minLength: 1, maxLength: 60 },
);

describe('the engine against a plain rendering of Nova’s flow', () => {
  it.each([false, true])(
    'picks, falls through claims and takes alternates alike (explain %s)',
    async (explain) => {
      await fc.assert(
        fc.asyncProperty(
          fleetArb,
          fc.integer({ min: 1, max: 5 }),
          fc.integer({ min: 1, max: 6 }),
          fc.double({ min: 0, max: 0.999, noNaN: true }),
          async (rows, subsetSize, maxAttempts, pick) => {
            // Prepare: few distinct RAM values, so ties are common.
            const hosts = rows.map((r, i) => node(`h${i}`, { free_ram_mb: r.ram * 1024, cell_uuid: r.cell }));
            const claimable = new Set(rows.flatMap((r, i) => (r.claimable ? [`h${i}`] : [])));
            const config = noPlacement({
              filter_scheduler: { host_subset_size: subsetSize },
              scheduler: { max_attempts: maxAttempts },
            });
            // Act
            const d = await schedule(hosts, makeSpec(), {
              weighers: [RAMWeigher],
              config,
              options: { explain, random: () => pick, claim: (h) => claimable.has(h.host) },
            });
            // Assess
            const expected = novaReference(hosts, subsetSize, maxAttempts - 1, pick, claimable);
            expect({ selected: selected(d), alternates: alternates(d) }).toEqual(expected);
          },
        ),
        { numRuns: 60 },
      );
    },
  );
});
