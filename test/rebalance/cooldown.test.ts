import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cooldownOf, pingPongReason, recentSources } from '../../lib/rebalance/cooldown.js';
import type { MigrationRecord } from '../../lib/rebalance/types.js';
import { NOW, settingsWith } from './fixtures.js';

const SETTINGS = settingsWith();
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const move = (h: number, source = 'cmpA', dest = 'cmpB', uuid = 'vm-1'): MigrationRecord => ({
  instance_uuid: uuid,
  source_host: source,
  dest_host: dest,
  at: hoursAgo(h),
});

describe('cooldownOf', () => {
  it.each([
    ['a VM that never moved is free', null, [], false, 0, 0],
    ['one move 1 h ago cools down 2 h', hoursAgo(1), [], true, 1, 2],
    ['one move 3 h ago is over its 2 h', hoursAgo(3), [], false, 1, 2],
    ['a second move doubles the cooldown to 4 h', null, [move(10), move(3)], true, 2, 4],
    ['a third move doubles it again to 8 h', null, [move(20), move(10), move(7)], true, 3, 8],
    ['moves older than the cap are forgotten', null, [move(60), move(50), move(3)], false, 1, 2],
    ['last_migrated_at matching a record is the same move', hoursAgo(3), [move(3)], false, 1, 2],
    ['last_migrated_at without a record is another move', hoursAgo(1), [move(10)], true, 2, 4],
    ["other VMs' moves do not count", null, [move(1, 'a', 'b', 'vm-2')], false, 0, 0],
  ])('%s', (_case, last, history, cooling, moves, hours) => {
    // Act
    const cooldown = cooldownOf({ uuid: 'vm-1', last_migrated_at: last }, history, NOW, SETTINGS);
    // Assess
    expect(cooldown).toMatchObject({ coolingDown: cooling, moves, cooldownHours: hours });
  });

  it('caps the backoff at max_cooldown_hours', () => {
    // Prepare: seven moves → 2 × 2^6 = 128 h, capped at 48.
    const history = [40, 35, 30, 20, 10, 5, 1].map((h) => move(h));
    // Act
    const cooldown = cooldownOf({ uuid: 'vm-1', last_migrated_at: null }, history, NOW, SETTINGS);
    // Assess
    expect(cooldown.cooldownHours).toBe(48);
  });

  it('says how many moves, how long ago and until when', () => {
    // Act
    const cooldown = cooldownOf({ uuid: 'vm-1', last_migrated_at: null }, [move(10), move(3)], NOW, SETTINGS);
    // Assess
    expect(cooldown.reason).toBe(
      'cooldown: 2 move(s) in the last 48 h, last 3 h ago, so a 4 h cooldown; may move again at 2026-12-01T13:00:00.000Z',
    );
  });

  it('treats a move recorded in the future (clock skew) as made now', () => {
    // Act
    const cooldown = cooldownOf({ uuid: 'vm-1', last_migrated_at: hoursAgo(-5) }, [], NOW, SETTINGS);
    // Assess
    expect(cooldown.until).toBe(hoursAgo(-2));
  });

  it('never lets a VM move sooner because it moved more (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 47, noNaN: true }), { minLength: 1, maxLength: 6 }),
        fc.double({ min: 0, max: 47, noNaN: true }),
        (ages, extra) => {
          const history = ages.map((h) => move(h));
          // Act
          const fewer = cooldownOf({ uuid: 'vm-1', last_migrated_at: null }, history, NOW, SETTINGS);
          const more = cooldownOf(
            { uuid: 'vm-1', last_migrated_at: null },
            [...history, move(extra)],
            NOW,
            SETTINGS,
          );
          // Assess
          expect(Date.parse(more.until ?? '')).toBeGreaterThanOrEqual(Date.parse(fewer.until ?? ''));
        },
      ),
    );
  });
});

describe('ping-pong guard', () => {
  it('forbids returning to a host the VM left within no_return_hours', () => {
    // Prepare
    const sources = recentSources('vm-1', [move(30, 'cmpOld'), move(5, 'cmpA', 'cmpB')], NOW, SETTINGS);
    // Act
    const back = pingPongReason(sources, 'cmpA', NOW, SETTINGS);
    // Assess
    expect(back).toBe('no ping-pong: the VM left cmpA 5 h ago (no return within 24 h)');
  });

  it.each([
    ['a host left longer ago than no_return_hours', 'cmpOld'],
    ['a host the VM never left', 'cmpC'],
  ])('allows %s', (_case, dest) => {
    // Prepare
    const sources = recentSources('vm-1', [move(30, 'cmpOld'), move(5, 'cmpA', 'cmpB')], NOW, SETTINGS);
    // Act / Assess
    expect(pingPongReason(sources, dest, NOW, SETTINGS)).toBeUndefined();
  });

  it("ignores other VMs' sources", () => {
    // Act
    const sources = recentSources('vm-1', [move(1, 'cmpA', 'cmpB', 'vm-2')], NOW, SETTINGS);
    // Assess
    expect(sources.size).toBe(0);
  });
});
