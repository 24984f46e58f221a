import { describe, expect, it } from 'vitest';
import { heartbeatPeriod, StateWriteMemo, stateFingerprint } from '../../lib/store/writeMemo.js';

const HEARTBEAT = 15 * 60_000;
const uuids = Array.from({ length: 200 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

describe('heartbeatPeriod', () => {
  it('stays between three quarters of the heartbeat and the heartbeat', () => {
    // Act
    const periods = uuids.map((u) => heartbeatPeriod(u, HEARTBEAT));
    // Assess
    expect(Math.min(...periods)).toBeGreaterThanOrEqual(0.75 * HEARTBEAT);
    expect(Math.max(...periods)).toBeLessThanOrEqual(HEARTBEAT);
  });

  it('spreads instances over the range, so a cold start does not rewrite them all in one minute', () => {
    // Act
    const minutes = new Set(uuids.map((u) => Math.floor(heartbeatPeriod(u, HEARTBEAT) / 60_000)));
    // Assess: 11.25 to 15 minutes covers 4 or 5 distinct whole minutes
    expect(minutes.size).toBeGreaterThanOrEqual(4);
  });
});

describe('StateWriteMemo', () => {
  const state = { uuid: 'u', host: 'a', reported_at: 'x' };

  it.each([
    ['nothing was written yet', undefined, '2026-12-01T12:01:00.000Z', 1_000, 'write'],
    ['the same state, newer, within the heartbeat', 'same', '2026-12-01T12:01:00.000Z', 1_000, 'unchanged'],
    ['a changed state', 'changed', '2026-12-01T12:01:00.000Z', 1_000, 'write'],
    ['a report no newer than the one written', 'same', '2026-12-01T12:00:00.000Z', 1_000, 'stale'],
    ['the same state after the heartbeat', 'same', '2026-12-01T12:30:00.000Z', HEARTBEAT, 'write'],
  ] as const)('says %s → %s', (_name, remembered, reportedAt, elapsed, expected) => {
    // Prepare
    const memo = new StateWriteMemo(HEARTBEAT);
    if (remembered) memo.wrote('u', stateFingerprint(state), '2026-12-01T12:00:00.000Z', 0);
    const fingerprint = stateFingerprint(remembered === 'changed' ? { ...state, host: 'b' } : state);
    // Act
    const verdict = memo.verdict('u', fingerprint, reportedAt, elapsed);
    // Assess
    expect(verdict).toBe(expected);
  });

  it('ignores reported_at and samples in the fingerprint', () => {
    // Act
    const a = stateFingerprint({ ...state, reported_at: '1', samples: [1] });
    const b = stateFingerprint({ ...state, reported_at: '2', samples: [2] });
    // Assess
    expect(a).toBe(b);
  });
});
