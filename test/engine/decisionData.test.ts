import { describe, expect, it } from 'vitest';
import { ComputeFilter } from '../../lib/engine/filters/ComputeFilter.js';
import { Fleet } from '../../lib/engine/fleet.js';
import { Scheduler } from '../../lib/engine/scheduler.js';
import { RAMWeigher } from '../../lib/engine/weighers/RAMWeigher.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

/**
 * A decision is plain data its caller owns: whatever the same scheduler decides afterwards, on the
 * same fleet or another, an explanation read later says what it said when the decision was made.
 */
describe('explained decisions as plain data', () => {
  const config = makeConfig({ placid: { placement_prefilter: true } });
  const scheduler = new Scheduler(config, [ComputeFilter], [RAMWeigher]);
  const fleetOf = (disabled: string, rams: number[]) =>
    Fleet.from(
      rams.map((free_ram_mb, i) =>
        makeHost({
          host: `h${i}`,
          nodename: `h${i}`,
          free_ram_mb,
          total_usable_ram_mb: 16384,
          vcpus_total: 16,
          total_usable_disk_gb: 100,
          free_disk_mb: 102400,
          service: { disabled: `h${i}` === disabled, up: true },
        }),
      ),
    );
  const explanation = (d: Awaited<ReturnType<Scheduler['schedule']>>) => ({
    weighed: d.weighed?.map((w) => [w.host.host, w.weight, w.breakdown]),
    ranked: d.rankedWeights?.()?.map((w) => [w.host.host, w.weight]),
    eliminated: d.eliminated(),
    top: d.explainedTop?.(2),
  });

  it('reads the same explanation after later decisions as right after its own', async () => {
    // Prepare
    const first = await scheduler.schedule(fleetOf('h1', [1024, 2048, 4096, 8192]), makeSpec(), {
      explain: true,
    });
    const early = explanation(first);
    // Act: later decisions over other fleets, explained and not, with other hosts removed
    for (const disabled of ['h0', 'h2', 'h3']) {
      const fleet = fleetOf(disabled, [8192, 512, 1024, 16384]);
      await scheduler.schedule(fleet, makeSpec(), { explain: true });
      await scheduler.schedule(fleet, makeSpec());
    }
    // Assess
    expect(explanation(first)).toEqual(early);
    expect(early.eliminated.map((e) => e.host)).toEqual(['h1']);
    expect(early.ranked?.map(([host]) => host)).toEqual(['h3', 'h2', 'h0']);
  });
});
