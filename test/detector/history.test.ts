import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movedSince, moveHistory } from '../../lib/detector/history.js';
import { reconcile } from '../../lib/detector/index.js';
import type { InstanceReport } from '../../lib/model/reports.js';
import { openHarness, type StoreHarness, startDynamo } from './harness.js';
import { countedStore } from './requests.js';

let dynamo: StoreHarness;
beforeAll(async () => {
  dynamo = await startDynamo();
});
afterAll(async () => {
  await dynamo.local.close();
});

const NOW = new Date('2026-12-01T12:00:00Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();
const LOOKBACK = { max_cooldown_hours: 48, no_return_hours: 24 };

describe('movedSince', () => {
  it.each([
    ['a VM that never moved', null, []],
    ['a VM that last moved before the lookback', hoursAgo(49), []],
    ['a VM that moved at the lookback start', hoursAgo(48), ['vm']],
    ['a VM that moved an hour ago', hoursAgo(1), ['vm']],
  ])('%s: its history is read only if it moved since', (_case, last, expected) => {
    // Act
    const read = movedSince([{ uuid: 'vm', last_migrated_at: last }], new Date(hoursAgo(48)));
    // Assess
    expect(read).toEqual(expected);
  });
});

describe('moveHistory', () => {
  it('returns the moves of the VMs a plan moved, querying only VMs that moved in the lookback', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'auto');
    const { sent } = await reconcile(h.deps);
    h.advance(2);
    await h.finish(sent);
    // A stored instance is its report without samples; the type loses the named fields to the index signature.
    const vms = (await h.store.listInstances()) as InstanceReport[];
    const lookbackStart = h.now().getTime() - 48 * 3_600_000;
    const moved = vms.filter((vm) => vm.last_migrated_at && Date.parse(vm.last_migrated_at) >= lookbackStart);
    const counted = countedStore(dynamo, h);
    // Act
    const history = await moveHistory(counted.deps.store.migrations, vms, h.now(), LOOKBACK, 4);
    counted.close();
    // Assess
    expect(history.map((r) => [r.instance_uuid, r.source_host, r.dest_host]).sort()).toEqual(
      sent.map((m) => [m.instance_uuid, m.source_host, m.dest_host]).sort(),
    );
    expect(counted.requests).toHaveLength(moved.length);
    expect(moved.length).toBeLessThan(vms.length);
  });
});
