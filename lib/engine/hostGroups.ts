import type { HostState } from '../model/hostState.js';

/**
 * What a filter's verdict on a host depends on, besides the request: hosts that give the same
 * value for every key (compared with SameValueZero, so objects by identity) get the same verdict.
 * Fleet shares repeated sub-values (aggregates, service records, supported_instances), so a fleet
 * of 100k hosts usually has a handful of groups, and a filter is evaluated once per group.
 *
 * `id` names the keys: groupings are cached per fleet by id, so one id must always mean the same keys.
 */
export interface HostGrouping {
  readonly id: string;
  readonly keys: readonly ((host: HostState) => unknown)[];
}

/** Host position → group number, how many groups there are, and each group's first host position. */
export interface HostGroups {
  readonly groupOf: Int32Array;
  readonly size: number;
  readonly first: Int32Array;
  /**
   * True when only some hosts were numbered (buildGroups' `within`): groupOf is then meaningless
   * anywhere else, and `first` is each group's first host among them.
   */
  readonly partial: boolean;
}

/** Host positions to number: positions[0..count). */
export interface HostSubset {
  readonly positions: Int32Array;
  readonly count: number;
}

/** Stands for -0, which SameValueZero would merge with 0 although Python prints them apart. */
const MINUS_ZERO = Symbol('-0');

function keyValue(v: unknown): unknown {
  return Object.is(v, -0) ? MINUS_ZERO : v;
}

/**
 * Numbers the distinct key tuples of `hosts` in order of first appearance (one nested Map per key),
 * or only those of the hosts at `within`'s positions (a decision that reads a few candidates of a
 * large fleet need not key every host).
 */
export function buildGroups(
  hosts: readonly HostState[],
  grouping: HostGrouping,
  within: HostSubset | null = null,
): HostGroups {
  const { keys } = grouping;
  const last = keys.length - 1;
  const groupOf = new Int32Array(hosts.length);
  const n = within === null ? hosts.length : within.count;
  const at = within === null ? null : within.positions;
  const partial = within !== null;
  // No keys: every host in group 0 (groupOf is all 0 already).
  if (last < 0) {
    const first = n > 0 ? Int32Array.of(at === null ? 0 : at[0]) : new Int32Array(0);
    return { groupOf, size: first.length, first, partial };
  }
  const first: number[] = [];
  const root = new Map<unknown, unknown>();
  for (let j = 0; j < n; j++) {
    const i = at === null ? j : at[j];
    const host = hosts[i];
    let level = root;
    for (let k = 0; k < last; k++) {
      const v = keyValue(keys[k](host));
      let next = level.get(v) as Map<unknown, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(v, next);
      }
      level = next;
    }
    const v = keyValue(keys[last](host));
    let g = level.get(v) as number | undefined;
    if (g === undefined) {
      g = first.length;
      first.push(i);
      level.set(v, g);
    }
    groupOf[i] = g;
  }
  return { groupOf, size: first.length, first: Int32Array.from(first), partial };
}

/** Hosts with the same aggregates array (Fleet shares one per distinct membership). */
export const BY_AGGREGATES: HostGrouping = { id: 'aggregates', keys: [(h) => h.aggregates] };
