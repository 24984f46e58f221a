import { describe, expect, it } from 'vitest';
import { parseBlackoutWindow } from '../../lib/rebalance/blackout.js';
import { type WaveMove, WavePlanner, type WaveSettings } from '../../lib/rebalance/waves.js';
import { NOW, settingsWith } from './fixtures.js';

const DEADLINE = new Date(NOW.getTime() + 30 * 60_000);

function planner(overrides: Partial<WaveSettings> & { windows?: string[] } = {}, deadline = DEADLINE) {
  const { windows = [], ...rest } = overrides;
  const settings = settingsWith({
    ...rest,
    blackout_windows: windows.map(
      (w) => parseBlackoutWindow(w) as Exclude<ReturnType<typeof parseBlackoutWindow>, string>,
    ),
  });
  return new WavePlanner(settings, NOW, deadline);
}

const move = (source: string, dest: string, seconds = 60, zone = 'az1'): WaveMove => ({
  source,
  dest,
  zone,
  seconds,
});

/** Adds the moves in order; returns the wave each got (or the refusal code). */
function place(waves: WavePlanner, moves: WaveMove[]): (number | string)[] {
  return moves.map((m) => {
    const slot = waves.slot(m);
    if (!slot.ok) return slot.code;
    waves.add(m, slot);
    return slot.wave;
  });
}

describe('WavePlanner: limits per wave', () => {
  it.each([
    ['one migration leaving a host per wave', {}, [move('a', 'x'), move('a', 'y')], [1, 2]],
    ['one migration arriving at a host per wave', {}, [move('a', 'x'), move('b', 'x')], [1, 2]],
    [
      'max_migrations_per_az per zone',
      { max_migrations_per_az: 1 },
      [move('a', 'x'), move('b', 'y'), move('c', 'z', 60, 'az2')],
      [1, 2, 1],
    ],
    [
      'max_concurrent_migrations in all',
      { max_concurrent_migrations: 2 },
      [move('a', 'x'), move('b', 'y'), move('c', 'z', 60, 'az2')],
      [1, 1, 2],
    ],
    [
      'the link bandwidth of a host',
      { max_migrations_per_host: 4, link_bandwidth_mbps: 5000 },
      [move('a', 'x'), move('a', 'y'), move('a', 'z')],
      [1, 1, 2],
    ],
    [
      'several migrations per host when allowed',
      { max_migrations_per_host: 2 },
      [move('a', 'x'), move('a', 'y')],
      [1, 1],
    ],
  ])('allows %s', (_case, settings, moves, waves) => {
    // Act
    const got = place(planner(settings), moves);
    // Assess
    expect(got).toEqual(waves);
  });

  it('does not lengthen an earlier wave: a longer move waits for a later one', () => {
    // Prepare: wave 1 holds a 60 s move, wave 2 exists.
    const waves = planner();
    place(waves, [move('a', 'x', 60), move('a', 'y', 60)]);
    // Act: fits wave 1 by the limits, but takes 120 s.
    const got = place(waves, [move('b', 'z', 120)]);
    // Assess
    expect(got).toEqual([2]);
  });

  it('starts each wave when the previous one ends', () => {
    // Prepare
    const waves = planner();
    place(waves, [move('a', 'x', 90), move('a', 'y', 30)]);
    // Act
    const summary = waves.summary();
    // Assess
    expect(summary).toEqual([
      { wave: 1, starts_at: '2026-12-01T12:00:00.000Z', ends_at: '2026-12-01T12:01:30.000Z', migrations: 1 },
      { wave: 2, starts_at: '2026-12-01T12:01:30.000Z', ends_at: '2026-12-01T12:02:00.000Z', migrations: 1 },
    ]);
  });
});

describe('WavePlanner: time', () => {
  it('defers a wave that would start in a blackout window to its end', () => {
    // Prepare: the first wave ends at 12:02, inside 12:01-12:10.
    const waves = planner({ windows: ['12:01-12:10'] });
    place(waves, [move('a', 'x', 120)]);
    // Act
    const slot = waves.slot(move('a', 'y'));
    // Assess
    expect(slot).toMatchObject({ ok: true, wave: 2, startsAt: new Date('2026-12-01T12:10:00Z') });
  });

  it('refuses a move whose wave a window pushes past the plan expiry, saying so', () => {
    // Prepare
    const waves = planner({ windows: ['12:01-13:00'] });
    place(waves, [move('a', 'x', 120)]);
    // Act
    const slot = waves.slot(move('a', 'y'));
    // Assess
    expect(slot).toMatchObject({ ok: false, code: 'blackout' });
    expect(slot.ok || slot.reason).toContain('inside blackout window 12:01-13:00 (UTC)');
  });

  it('refuses a move when the limits leave no wave before the plan expires', () => {
    // Prepare: ten-minute moves from one host; the plan lasts 30 minutes.
    const waves = planner();
    place(waves, [move('a', 'x', 600), move('a', 'y', 600), move('a', 'z', 600)]);
    // Act
    const slot = waves.slot(move('a', 'w', 600));
    // Assess
    expect(slot).toMatchObject({ ok: false, code: 'budget' });
    expect(slot.ok || slot.reason).toContain('the busiest limit being max_migrations_per_host 1 leaving a');
  });
});
