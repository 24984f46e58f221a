/**
 * Per-VM cooldown with exponential backoff, and the ping-pong guard. After a move a VM rests
 * cooldown_hours; each further move counted within max_cooldown_hours doubles it
 * (cooldown_hours × 2^(moves-1), capped at max_cooldown_hours), as OpenShift's VM descheduler
 * profile does. A VM never returns to a host it left within no_return_hours, which stops the
 * descheduler's classic A → B → A eviction loop.
 */
import type { RebalanceSettings } from './settings.js';
import type { MigrationRecord } from './types.js';

const HOUR_MS = 3_600_000;
/** last_migrated_at within this of a history record is that same move, not another one. */
const SAME_MOVE_MS = 5 * 60_000;

export type CooldownSettings = Pick<
  RebalanceSettings,
  'cooldown_hours' | 'max_cooldown_hours' | 'no_return_hours'
>;

export interface CooldownVm {
  uuid: string;
  last_migrated_at: string | null;
}

export interface Cooldown {
  coolingDown: boolean;
  /** Moves counted for the backoff (within max_cooldown_hours). */
  moves: number;
  cooldownHours: number;
  /** When the VM may move again (ISO-8601); null when it never moved in the lookback. */
  until: string | null;
  reason: string;
}

/**
 * The VM's cooldown at `now` from its last_migrated_at and its migration records (records of
 * other VMs are ignored, so one fleet-wide history can be passed). Records in the future count as
 * moves made now (clock skew must not shorten a cooldown).
 * @example cooldownOf({ uuid, last_migrated_at: '2026-12-01T11:00:00Z' }, [], now, settings)
 */
export function cooldownOf(
  vm: CooldownVm,
  history: readonly MigrationRecord[],
  now: Date,
  settings: CooldownSettings,
): Cooldown {
  const t = now.getTime();
  const lookbackStart = t - settings.max_cooldown_hours * HOUR_MS;
  const times = history
    .filter((r) => r.instance_uuid === vm.uuid)
    .map((r) => Math.min(t, Date.parse(r.at)))
    .filter((at) => at >= lookbackStart);
  const last = vm.last_migrated_at ? Math.min(t, Date.parse(vm.last_migrated_at)) : Number.NaN;
  if (last >= lookbackStart && !times.some((at) => Math.abs(at - last) <= SAME_MOVE_MS)) times.push(last);
  if (times.length === 0) {
    return { coolingDown: false, moves: 0, cooldownHours: 0, until: null, reason: 'no move in the lookback' };
  }
  const moves = times.length;
  const cooldownHours = Math.min(settings.cooldown_hours * 2 ** (moves - 1), settings.max_cooldown_hours);
  const lastMove = Math.max(...times);
  const until = lastMove + cooldownHours * HOUR_MS;
  const coolingDown = t < until;
  const counted = `${moves} move(s) in the last ${settings.max_cooldown_hours} h, last ${hours((t - lastMove) / HOUR_MS)} ago, so a ${hours(cooldownHours)} cooldown`;
  const reason = coolingDown
    ? `cooldown: ${counted}; may move again at ${new Date(until).toISOString()}`
    : `cooldown over: ${counted} has passed`;
  return { coolingDown, moves, cooldownHours, until: new Date(until).toISOString(), reason };
}

/**
 * Hosts the VM left within no_return_hours, with when it left each (ms since epoch, newest).
 * A destination in this map would be ping-pong.
 */
export function recentSources(
  uuid: string,
  history: readonly MigrationRecord[],
  now: Date,
  settings: Pick<CooldownSettings, 'no_return_hours'>,
): Map<string, number> {
  const t = now.getTime();
  const since = t - settings.no_return_hours * HOUR_MS;
  const out = new Map<string, number>();
  for (const r of history) {
    if (r.instance_uuid !== uuid) continue;
    const at = Math.min(t, Date.parse(r.at));
    if (!(at >= since)) continue;
    out.set(r.source_host, Math.max(out.get(r.source_host) ?? at, at));
  }
  return out;
}

/**
 * Why moving the VM to `dest` would be ping-pong, or undefined when it would not.
 * @example pingPongReason(recentSources(uuid, history, now, settings), 'cmp7', now, settings)
 */
export function pingPongReason(
  sources: ReadonlyMap<string, number>,
  dest: string,
  now: Date,
  settings: Pick<CooldownSettings, 'no_return_hours'>,
): string | undefined {
  const leftAt = sources.get(dest);
  if (leftAt === undefined) return undefined;
  const ago = (now.getTime() - leftAt) / HOUR_MS;
  return `no ping-pong: the VM left ${dest} ${hours(ago)} ago (no return within ${settings.no_return_hours} h)`;
}

const hours = (v: number) => `${Number(v.toFixed(1))} h`;
