/**
 * Which migrations of an approved plan are due now. Rule: wave N is sent only when every
 * migration of waves 1..N-1 has ended (a terminal record: succeeded, failed, deferred or skipped),
 * never merely because wave N's planned `starts_at` has passed. The planner sized each wave
 * assuming the ones before it were done: capacity on hosts they vacate, per-host and per-zone
 * concurrency, link bandwidth. Sending on the clock would overlap waves whenever a migration runs
 * longer than estimated, which is when the network is already busy. A wave whose predecessors end
 * early starts early, except inside a blackout window (no migration starts there).
 */

import { type MigrationRecordItem, TERMINAL_RECORD_STATUSES } from '../model/migration.js';
import { blackoutAt } from '../rebalance/blackout.js';
import type { RebalanceSettings } from '../rebalance/settings.js';

export type WaveGate =
  | { kind: 'finished' }
  | { kind: 'send'; wave: number; due: MigrationRecordItem[] }
  | { kind: 'wait'; wave: number; reason: string };

export function waveGate(
  records: readonly MigrationRecordItem[],
  now: Date,
  settings: Pick<RebalanceSettings, 'blackout_windows' | 'timezone'>,
): WaveGate {
  const open = records.filter((r) => !TERMINAL_RECORD_STATUSES.has(r.status));
  if (open.length === 0) return { kind: 'finished' };
  const wave = Math.min(...open.map((r) => r.wave ?? 1));
  const inWave = open.filter((r) => (r.wave ?? 1) === wave);
  const due = inWave.filter((r) => r.status === 'planned');
  if (due.length === 0) {
    // Only this wave's own open records: later waves' planned ones have not started anything.
    const queued = inWave.filter((r) => r.status === 'queued').length;
    const notStarted = queued > 0 ? ` (${queued} queued, not started yet)` : '';
    return {
      kind: 'wait',
      wave,
      reason: `wave ${wave}: ${inWave.length} migration(s) still running${notStarted}`,
    };
  }
  const window = blackoutAt(now, settings.blackout_windows, settings.timezone);
  if (window) {
    return {
      kind: 'wait',
      wave,
      reason: `wave ${wave} waits: blackout window ${window.text} (${settings.timezone})`,
    };
  }
  return { kind: 'send', wave, due };
}
