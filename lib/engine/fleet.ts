import type { Aggregate, HostState } from '../model/hostState.js';

/**
 * Host states loaded once and shared by many scheduling requests. Hosts with the same aggregate
 * membership share one `aggregates` array, so aggregate-derived answers (AZ, metadata, multiplier
 * overrides) are computed once per distinct membership instead of once per host.
 */
export class Fleet {
  /** Every metadata key used by any aggregate; lets weighers skip per-host override look-ups. */
  readonly aggregateKeys: ReadonlySet<string>;
  readonly byName: ReadonlyMap<string, HostState[]>;

  private constructor(readonly hosts: readonly HostState[]) {
    const keys = new Set<string>();
    const byName = new Map<string, HostState[]>();
    for (const h of hosts) {
      for (const a of h.aggregates) for (const k of Object.keys(a.metadata)) keys.add(k);
      const list = byName.get(h.host);
      if (list) list.push(h);
      else byName.set(h.host, [h]);
    }
    this.aggregateKeys = keys;
    this.byName = byName;
  }

  static from(hosts: readonly HostState[] | Fleet): Fleet {
    if (hosts instanceof Fleet) return hosts;
    return new Fleet(internAggregates(hosts));
  }
}

/** Makes hosts with identical aggregate membership share one array (hosts are copied, not mutated). */
function internAggregates(hosts: readonly HostState[]): HostState[] {
  const arrays = new Map<string, Aggregate[]>();
  const objects = new Map<string, Aggregate>();
  return hosts.map((h) => {
    if (h.aggregates.length === 0) return h.aggregates === EMPTY ? h : { ...h, aggregates: EMPTY };
    const key = h.aggregates.map((a) => aggregateKey(a, objects)).join('\u0001');
    let shared = arrays.get(key);
    if (!shared) {
      shared = h.aggregates.map((a) => objects.get(aggregateKey(a, objects)) ?? a);
      arrays.set(key, shared);
    }
    return shared === h.aggregates ? h : { ...h, aggregates: shared };
  });
}

const EMPTY: Aggregate[] = [];

function aggregateKey(a: Aggregate, objects: Map<string, Aggregate>): string {
  const key = `${a.uuid ?? ''}\u0002${a.name}\u0002${JSON.stringify(Object.entries(a.metadata).sort())}`;
  if (!objects.has(key)) objects.set(key, a);
  return key;
}
