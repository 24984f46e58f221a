/**
 * What a replaced host must keep for a fleet index to carry a structure over (FleetIndex.carriedTo):
 * each check says that the old and the new host give the structure the very same entry.
 */
import type { HostState } from '../../model/hostState.js';
import type { HostGrouping } from '../hostGroups.js';

/** Trait arrays are not always shared between hosts, so trait sets are told apart by content. */
export function traitKey(traits: readonly string[]): string {
  return traits.length === 0 ? '' : traits.join('\u0001');
}

/** Same membership groups: the same (shared) aggregates array and the same trait set. */
export function sameMemberships(a: HostState, b: HostState): boolean {
  return (
    a.aggregates === b.aggregates && (a.traits === b.traits || traitKey(a.traits) === traitKey(b.traits))
  );
}

/** Same entries in the name index. */
export function sameNames(a: HostState, b: HostState): boolean {
  return a.nodename === b.nodename && a.host.toLowerCase() === b.host.toLowerCase();
}

/** Both report an availability_zone of their own, or neither (FleetIndex.hostsReportZones). */
export function sameZonePresence(a: HostState, b: HostState): boolean {
  return (a.availability_zone != null) === (b.availability_zone != null);
}

/**
 * The same key tuple under `grouping` (buildGroups compares keys with SameValueZero, -0 apart from
 * 0: Object.is). A key that throws counts as a change: the groups are then built again, where it
 * throws as it would have.
 */
export function sameGroup(grouping: HostGrouping, a: HostState, b: HostState): boolean {
  try {
    return grouping.keys.every((key) => Object.is(key(a), key(b)));
  } catch {
    return false;
  }
}
