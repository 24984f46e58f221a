/** The planner keeps every move inside the source's cell (Nova refuses cross-cell live migration). */
import { describe, expect, it } from 'vitest';
import { planRebalance } from '../../lib/rebalance/planner.js';
import { settingsWith } from './fixtures.js';
import { contendedFleet } from './planFixtures.js';

const CELL_A = '11111111-1111-4111-8111-111111111111';
const CELL_B = '22222222-2222-4222-8222-222222222222';

/** contendedFleet with each host's cell set as `cells` says (absent: none named). */
function fleetInCells(cells: Record<string, string>) {
  const fleet = contendedFleet(['d1', 'd2']);
  for (const h of fleet.hypervisors) {
    const cell = cells[h.host];
    if (cell) h.state = { ...h.state, cell_uuid: cell };
  }
  return fleet;
}

const plan = (fleet: ReturnType<typeof contendedFleet>) =>
  planRebalance({ fleet, settings: settingsWith({}) });

describe('planRebalance across cells', () => {
  it('moves only to a host of the source’s cell, even when another cell’s host is as free', async () => {
    const p = await plan(fleetInCells({ src: CELL_A, d1: CELL_B, d2: CELL_A }));
    expect(p.migrations.length).toBeGreaterThan(0);
    expect(new Set(p.migrations.map((m) => m.dest_host))).toEqual(new Set(['d2']));
  });

  it('plans nothing when the source’s cell holds no other host', async () => {
    const p = await plan(fleetInCells({ src: CELL_A, d1: CELL_B, d2: CELL_B }));
    expect(p.migrations).toEqual([]);
  });

  it('moves nothing off a host whose cell is unknown while others name theirs', async () => {
    const p = await plan(fleetInCells({ d1: CELL_A, d2: CELL_B }));
    expect(p.migrations).toEqual([]);
    expect(p.skipped.map((s) => s.reason).join(' ')).toContain('the cell of src is unknown');
  });
});
