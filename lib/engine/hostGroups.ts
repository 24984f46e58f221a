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
}

/** Stands for -0, which SameValueZero would merge with 0 although Python prints them apart. */
const MINUS_ZERO = Symbol('-0');

function keyValue(v: unknown): unknown {
  return Object.is(v, -0) ? MINUS_ZERO : v;
}

/** Numbers the distinct key tuples of `hosts` in order of first appearance (one nested Map per key). */
export function buildGroups(hosts: readonly HostState[], grouping: HostGrouping): HostGroups {
  const { keys } = grouping;
  const last = keys.length - 1;
  const groupOf = new Int32Array(hosts.length);
  if (last < 0) return groupsOf(groupOf, hosts.length > 0 ? 1 : 0);
  const root = new Map<unknown, unknown>();
  let size = 0;
  for (let i = 0; i < hosts.length; i++) {
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
      g = size++;
      level.set(v, g);
    }
    groupOf[i] = g;
  }
  return groupsOf(groupOf, size);
}

/** HostGroups for group numbers already assigned (in order of first appearance or not). */
export function groupsOf(groupOf: Int32Array, size: number): HostGroups {
  const first = new Int32Array(size).fill(-1);
  for (let i = 0; i < groupOf.length; i++) if (first[groupOf[i]] < 0) first[groupOf[i]] = i;
  return { groupOf, size, first };
}

/** Hosts with the same aggregates array (Fleet shares one per distinct membership). */
export const BY_AGGREGATES: HostGrouping = { id: 'aggregates', keys: [(h) => h.aggregates] };
