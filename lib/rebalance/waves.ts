/**
 * Groups planned migrations into waves that respect every limit. The migrations of a wave start
 * together; a wave starts when the previous one has finished (its longest migration). Per wave:
 * at most max_migrations_per_host leaving each source and arriving at each destination, at most
 * max_migrations_per_az per zone and max_concurrent_migrations in all, and on every host's
 * migration link the migrations touching it (in or out, each at its rate) within
 * link_bandwidth_mbps.
 *
 * Waves are filled as moves are planned, append-only: a move joins the first wave with room that
 * it does not lengthen (the last wave may grow, nothing starts after it yet), else opens a new
 * wave. So a start time, once given, never moves, and every check made when a move was accepted
 * stays true. A new wave that would start in a blackout window is deferred to the window's end;
 * no wave may start once the plan has expired (a later plan, on fresher data, takes over): a move
 * that would need such a wave is refused, for `blackout` when a window pushed it out, else `budget`.
 */

import type { PlanWave, Skip } from '../model/plan.js';
import { blackoutAt, nextAllowedStart } from './blackout.js';
import { migrationRateMbps } from './cost.js';
import type { RebalanceSettings } from './settings.js';

export type WaveSettings = Pick<
  RebalanceSettings,
  | 'max_migrations_per_host'
  | 'max_concurrent_migrations'
  | 'max_migrations_per_az'
  | 'migration_bandwidth_mbps'
  | 'link_bandwidth_mbps'
  | 'blackout_windows'
  | 'timezone'
>;

export interface WaveMove {
  source: string;
  dest: string;
  zone: string;
  seconds: number;
}

/** Where a move fits: its 1-based wave and start, or why it cannot start before the plan expires. */
export type WaveSlot = { ok: true; wave: number; startsAt: Date } | ({ ok: false } & Skip);

interface Wave {
  start: number;
  seconds: number;
  total: number;
  out: Map<string, number>;
  in: Map<string, number>;
  zones: Map<string, number>;
  /** Mbit/s in use on each host's link. */
  link: Map<string, number>;
}

export class WavePlanner {
  private readonly waves: Wave[] = [];
  /** The rate of one migration; the link check keeps each at its full rate. */
  readonly rateMbps: number;

  constructor(
    private readonly settings: WaveSettings,
    private readonly start: Date,
    private readonly deadline: Date,
  ) {
    this.rateMbps = migrationRateMbps(settings);
  }

  /** The wave the move would join now (nothing is recorded until `add`). */
  slot(move: WaveMove): WaveSlot {
    const blockers: string[] = [];
    const last = this.waves.length - 1;
    for (let i = 0; i <= last; i++) {
      const w = this.waves[i];
      const blocker = this.blocker(w, move);
      if (blocker === undefined && (i === last || move.seconds <= w.seconds)) {
        return { ok: true, wave: i + 1, startsAt: new Date(w.start) };
      }
      if (blocker !== undefined) blockers.push(blocker);
    }
    const base = last < 0 ? this.start.getTime() : this.waves[last].start + this.waves[last].seconds * 1000;
    const startsAt = this.allowedStart(base);
    if (startsAt.getTime() < this.deadline.getTime()) return { ok: true, wave: last + 2, startsAt };
    return { ok: false, ...this.refusal(base, startsAt, blockers) };
  }

  add(move: WaveMove, slot: WaveSlot & { ok: true }): void {
    let w = this.waves[slot.wave - 1];
    if (!w) {
      w = {
        start: slot.startsAt.getTime(),
        seconds: 0,
        total: 0,
        out: new Map(),
        in: new Map(),
        zones: new Map(),
        link: new Map(),
      };
      this.waves.push(w);
    }
    w.seconds = Math.max(w.seconds, move.seconds);
    w.total++;
    bump(w.out, move.source, 1);
    bump(w.in, move.dest, 1);
    bump(w.zones, move.zone, 1);
    bump(w.link, move.source, this.rateMbps);
    bump(w.link, move.dest, this.rateMbps);
  }

  /** The waves with their times, for the plan. */
  summary(): PlanWave[] {
    return this.waves.map((w, i) => ({
      wave: i + 1,
      starts_at: new Date(w.start).toISOString(),
      ends_at: new Date(w.start + w.seconds * 1000).toISOString(),
      migrations: w.total,
    }));
  }

  /** The limit that keeps the move out of the wave, in words, or undefined when it fits. */
  private blocker(w: Wave, move: WaveMove): string | undefined {
    const s = this.settings;
    if (w.total >= s.max_concurrent_migrations)
      return `max_concurrent_migrations ${s.max_concurrent_migrations}`;
    if ((w.zones.get(move.zone) ?? 0) >= s.max_migrations_per_az) {
      return `max_migrations_per_az ${s.max_migrations_per_az} in ${move.zone}`;
    }
    if ((w.out.get(move.source) ?? 0) >= s.max_migrations_per_host) {
      return `max_migrations_per_host ${s.max_migrations_per_host} leaving ${move.source}`;
    }
    if ((w.in.get(move.dest) ?? 0) >= s.max_migrations_per_host) {
      return `max_migrations_per_host ${s.max_migrations_per_host} arriving at ${move.dest}`;
    }
    for (const host of [move.source, move.dest]) {
      if ((w.link.get(host) ?? 0) + this.rateMbps > s.link_bandwidth_mbps) {
        return `link_bandwidth_mbps ${s.link_bandwidth_mbps} on ${host}`;
      }
    }
    return undefined;
  }

  private allowedStart(at: number): Date {
    const s = this.settings;
    return s.blackout_windows.length === 0
      ? new Date(at)
      : nextAllowedStart(new Date(at), s.blackout_windows, s.timezone);
  }

  private refusal(base: number, startsAt: Date, blockers: string[]): Skip {
    const expires = this.deadline.toISOString();
    const window = blackoutAt(new Date(base), this.settings.blackout_windows, this.settings.timezone);
    if (window && base < this.deadline.getTime()) {
      return {
        code: 'blackout',
        reason:
          `blackout: its wave would start at ${new Date(base).toISOString()}, inside blackout window ` +
          `${window.text} (${this.settings.timezone}); after the window (${startsAt.toISOString()}) ` +
          `the plan has expired (${expires}), so a later plan reconsiders it`,
      };
    }
    const full = mostCommon(blockers);
    const why = full ? `, the busiest limit being ${full}` : '';
    return {
      code: 'budget',
      reason:
        `budget: the migration limits fill every wave that could start before the plan expires ` +
        `(${expires}${why}); a later plan reconsiders it`,
    };
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function mostCommon(items: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  let best: string | undefined;
  for (const item of items) {
    const n = (counts.get(item) ?? 0) + 1;
    counts.set(item, n);
    if (best === undefined || n > (counts.get(best) ?? 0)) best = item;
  }
  return best;
}
