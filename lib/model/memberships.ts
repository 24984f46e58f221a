import type { Aggregate } from './hostState.js';

/**
 * One `aggregates` array per distinct membership among the hosts of one input: the engine answers
 * aggregate questions (zones, metadata, multiplier overrides, the pre-filter's rules and their
 * reasons) once per array, so 20k hosts in six memberships are asked six times, not 20k. Arrays
 * are compared by content; hosts are never changed in place, so sharing one is safe.
 */
export class SharedMemberships {
  /** Distinct memberships by their aggregates' names (several when the names repeat with other content). */
  private readonly byNames = new Map<string, Aggregate[][]>();

  share(list: Aggregate[]): Aggregate[] {
    if (list.length === 0) return list;
    let names = '';
    for (const a of list) names += `${a.name}\u0000`;
    const seen = this.byNames.get(names);
    if (seen === undefined) this.byNames.set(names, [list]);
    else {
      for (const other of seen) if (sameAggregates(other, list)) return other;
      seen.push(list);
    }
    return list;
  }
}

// Loops rather than every/some/Object.keys: this runs once per host of a 20k-host file.
function sameAggregates(a: readonly Aggregate[], b: readonly Aggregate[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.name !== y.name || x.uuid !== y.uuid || x.hosts.length !== y.hosts.length) return false;
    for (let j = 0; j < x.hosts.length; j++) if (x.hosts[j] !== y.hosts[j]) return false;
    let keys = 0;
    for (const k in x.metadata) {
      if (!Object.hasOwn(y.metadata, k) || x.metadata[k] !== y.metadata[k]) return false;
      keys++;
    }
    for (const _ in y.metadata) keys--;
    if (keys !== 0) return false;
  }
  return true;
}
