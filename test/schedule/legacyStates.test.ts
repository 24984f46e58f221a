/**
 * States stored before ingest checked ranges (issue 12 item 1): a host that reported 1e200 MiB or
 * 4e15 vCPUs won every decision, then its claim limit broke DynamoDB. The snapshot now keeps such a
 * host visible to every reader but disabled with the reason, and the request goes to a sane host.
 */
import { describe, expect, it } from 'vitest';
import type { HypervisorReport } from '../../lib/model/reports.js';
import { scheduleRequest } from '../../lib/schedule/core.js';
import { depsFor, hostReport, putHosts, request, useStoreFixture } from './fixtures.js';

const db = useStoreFixture((store) => putHosts(store, 2, 8192));

/** A report written straight to the db.store, bypassing ingest's checks, as an older Placid stored it. */
function legacy(name: string, fields: Partial<HypervisorReport['state']>): HypervisorReport {
  const report = hostReport(name, 8192);
  return { ...report, state: { ...report.state, ...fields } };
}

describe('a stored state out of range', () => {
  it.each([
    [
      '1e200 MiB of RAM',
      { total_usable_ram_mb: 1e200, free_ram_mb: 1e200 },
      /total_usable_ram_mb 1e\+200 is outside/,
    ],
    ['4e15 vCPUs', { vcpus_total: 4e15 }, /vcpus_total 4000000000000000 is outside 0 to 65536 vCPUs/],
    ['a ratio of 1e306', { ram_allocation_ratio: 1e306 }, /ram_allocation_ratio 1e\+306 is outside/],
  ])('with %s is never chosen, and says why', async (_case, fields, reason) => {
    // Prepare
    await db.store.putHostReport(legacy('legacy', fields));
    const deps = depsFor(db.store);
    // Act
    const outcome = await scheduleRequest(request('r-legacy'), deps);
    // Assess
    expect(outcome.decision.error).toBeUndefined();
    expect(outcome.placements.map((p) => p.host)).not.toContain('legacy');
    expect(outcome.placements).toHaveLength(1);
    const seen = deps.snapshot.get('legacy')!.state;
    expect(seen.service).toMatchObject({ disabled: true, disabled_reason: expect.stringMatching(reason) });
    expect(seen.total_usable_ram_mb).toBe(0);
    // The other readers (placid fleet, the planner) see the same.
    const listed = (await db.store.listHosts()).find((x) => x.state.host === 'legacy')!;
    expect(listed.state.service.disabled_reason).toMatch(reason);
  });
});
