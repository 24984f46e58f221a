import type { Aggregate, HostState } from '../model/hostState.js';

/** Placement identifies aggregates by uuid; Placid falls back to the name when an aggregate has none. */
export function aggregateId(a: Aggregate): string {
  return a.uuid ?? a.name;
}

export const DISABLED_TRAIT = 'COMPUTE_STATUS_DISABLED';

/**
 * The fleet's hosts numbered by aggregate membership: hosts with the same (shared) aggregates
 * array are one group, so aggregate rules are decided once per group, not once per host.
 */
export interface AggregateIndex {
  /** Host position → index of its aggregates array in `groups`. */
  groupOf: Int32Array;
  groups: readonly (readonly Aggregate[])[];
  /** Every distinct aggregate of the fleet (by id): what Nova's aggregate DB queries would see. */
  aggregates: readonly Aggregate[];
}

/** The fleet's hosts numbered by trait set. */
export interface TraitIndex {
  groupOf: Int32Array;
  groups: readonly ReadonlySet<string>[];
  /** Per trait group: 1 when the host itself reports COMPUTE_STATUS_DISABLED. */
  disabled: Uint8Array;
  anyDisabled: boolean;
}

export interface NameIndex {
  /** Lower-cased host name → host positions (Nova's compute-node lookup is case-insensitive on host). */
  byHost: ReadonlyMap<string, number[]>;
  byNode: ReadonlyMap<string, number[]>;
}

/** Numbers `hosts` by their aggregates array (by identity: Fleet shares one per membership). */
export function indexAggregates(hosts: readonly HostState[]): AggregateIndex {
  const groupOf = new Int32Array(hosts.length);
  const ids = new Map<readonly Aggregate[], number>();
  const groups: (readonly Aggregate[])[] = [];
  const byId = new Map<string, Aggregate>();
  hosts.forEach((h, i) => {
    let g = ids.get(h.aggregates);
    if (g === undefined) {
      g = groups.length;
      ids.set(h.aggregates, g);
      groups.push(h.aggregates);
      for (const a of h.aggregates) if (!byId.has(aggregateId(a))) byId.set(aggregateId(a), a);
    }
    groupOf[i] = g;
  });
  return { groupOf, groups, aggregates: [...byId.values()] };
}

/**
 * Numbers `hosts` by their trait set: by content, since trait arrays are not always shared (a
 * refreshed snapshot keeps earlier hosts), but looked up by array identity first, as most are.
 */
export function indexTraits(hosts: readonly HostState[]): TraitIndex {
  const groupOf = new Int32Array(hosts.length);
  const ids = new Map<string, number>();
  const byArray = new Map<readonly string[], number>();
  const groups: ReadonlySet<string>[] = [];
  const disabled: number[] = [];
  hosts.forEach((h, i) => {
    let g = byArray.get(h.traits);
    if (g === undefined) {
      const key = h.traits.join('\u0001');
      g = ids.get(key);
      if (g === undefined) {
        g = groups.length;
        ids.set(key, g);
        const set = new Set(h.traits);
        groups.push(set);
        disabled.push(set.has(DISABLED_TRAIT) ? 1 : 0);
      }
      byArray.set(h.traits, g);
    }
    groupOf[i] = g;
  });
  return { groupOf, groups, disabled: Uint8Array.from(disabled), anyDisabled: disabled.includes(1) };
}

export function indexNames(hosts: readonly HostState[]): NameIndex {
  const byHost = new Map<string, number[]>();
  const byNode = new Map<string, number[]>();
  hosts.forEach((h, i) => {
    push(byHost, h.host.toLowerCase(), i);
    push(byNode, h.nodename, i);
  });
  return { byHost, byNode };
}

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}
