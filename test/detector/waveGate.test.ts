import { describe, expect, it } from 'vitest';
import { waveGate } from '../../lib/detector/waveGate.js';
import type { MigrationRecordItem, MigrationRecordStatus } from '../../lib/model/migration.js';

const settings = { blackout_windows: [], timezone: 'UTC' };
const now = new Date('2026-12-03T12:00:00Z');

function record(uuid: string, wave: number, status: MigrationRecordStatus): MigrationRecordItem {
  return { instance_uuid: uuid, started_at: '2026-12-03T11:00:00Z', wave, status } as MigrationRecordItem;
}

describe('waveGate', () => {
  it("counts only the current wave's open records as still running, not later waves' planned ones", () => {
    // Prepare: wave 1 has one running and one queued; waves 2 and 3 hold five planned migrations.
    const records = [
      record('a', 1, 'running'),
      record('b', 1, 'queued'),
      record('c', 1, 'succeeded'),
      ...['d', 'e', 'f'].map((u) => record(u, 2, 'planned')),
      ...['g', 'h'].map((u) => record(u, 3, 'planned')),
    ];
    // Act
    const gate = waveGate(records, now, settings);
    // Assess
    expect(gate).toEqual({
      kind: 'wait',
      wave: 1,
      reason: 'wave 1: 2 migration(s) still running (1 queued, not started yet)',
    });
  });

  it('sends the next wave once every record of the earlier waves has ended', () => {
    // Prepare
    const records = [record('a', 1, 'failed'), record('b', 1, 'deferred'), record('c', 2, 'planned')];
    // Act
    const gate = waveGate(records, now, settings);
    // Assess
    expect(gate.kind).toBe('send');
    expect(gate.kind === 'send' && gate.due.map((r) => r.instance_uuid)).toEqual(['c']);
  });

  it('is finished when no record is open', () => {
    expect(waveGate([record('a', 1, 'succeeded'), record('b', 2, 'skipped')], now, settings)).toEqual({
      kind: 'finished',
    });
  });
});
