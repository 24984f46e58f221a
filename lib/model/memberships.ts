import type { Aggregate } from './hostState.js';

/**
 * One `aggregates` array per distinct membership among a set of hosts, and one object per distinct
 * aggregate within them, compared by content (metadata in any key order). The engine answers
 * aggregate questions (zones, metadata, multiplier overrides, the pre-filter's rules and their
 * reasons) once per array, so 20k hosts in six memberships are asked six times, not 20k. Hosts are
 * never changed in place, so sharing is safe. Used as hosts are parsed and as a fleet is laid out.
 */
export class SharedMemberships {
  private empty?: Aggregate[];
  /** Distinct memberships by their aggregates' names (several when names repeat with other content). */
  private readonly byNames = new Map<string, Aggregate[][]>();
  private readonly byName = new Map<string, Aggregate[]>();

  share(list: Aggregate[]): Aggregate[] {
    if (list.length === 0) {
      this.empty ??= list;
      return this.empty;
    }
    let names = '';
    for (const a of list) names += `${a.name}\u0000`;
    const seen = this.byNames.get(names);
    if (seen !== undefined) for (const other of seen) if (sameAggregates(other, list)) return other;
    const shared = list.map((a) => this.aggregate(a));
    if (seen) seen.push(shared);
    else this.byNames.set(names, [shared]);
    return shared;
  }

  private aggregate(a: Aggregate): Aggregate {
    const seen = this.byName.get(a.name);
    const same = seen?.find((other) => sameAggregate(other, a));
    if (same) return same;
    if (seen) seen.push(a);
    else this.byName.set(a.name, [a]);
    return a;
  }
}

function sameAggregates(a: readonly Aggregate[], b: readonly Aggregate[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameAggregate(a[i], b[i])) return false;
  return true;
}

// Loops rather than every/some/Object.keys: this runs once per host of a 20k-host file.
function sameAggregate(x: Aggregate, y: Aggregate): boolean {
  if (x === y) return true;
  if (x.name !== y.name || x.uuid !== y.uuid || x.hosts.length !== y.hosts.length) return false;
  for (let j = 0; j < x.hosts.length; j++) if (x.hosts[j] !== y.hosts[j]) return false;
  let keys = 0;
  for (const k in x.metadata) {
    if (!Object.hasOwn(y.metadata, k) || x.metadata[k] !== y.metadata[k]) return false;
    keys++;
  }
  for (const _ in y.metadata) keys--;
  return keys === 0;
}
