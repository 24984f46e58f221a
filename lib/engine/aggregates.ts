import type { Aggregate, HostState } from '../model/hostState.js';
import { pyFloat, pyInt } from './pyStrings.js';

/** Nova's aggregate helpers (`nova/scheduler/utils.py`, `filters/utils.py`). */

/** Each metadata key of a host's aggregates → its values (comma-split, stripped, unioned). */
export type Metadata = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * What each aggregate membership of a fleet says, worked out when a host of that membership first
 * asks and kept by the Fleet: hosts with the same membership share one aggregates array (Fleet lays
 * them out so), which keys the answers. A decision reads its fleet's (`ctx.fleet.memberships`).
 */
export class MembershipFacts {
  private readonly metadataOf = new Map<readonly Aggregate[], Metadata>();
  private readonly zonesOf = new Map<readonly Aggregate[], ReadonlySet<string>>();
  private readonly multipliersOf = new Map<readonly Aggregate[], Map<string, CachedMultiplier>>();

  /** aggregateMetadata(host), once per membership. */
  metadata(host: HostState): Metadata {
    let md = this.metadataOf.get(host.aggregates);
    if (!md) {
      md = aggregateMetadata(host);
      this.metadataOf.set(host.aggregates, md);
    }
    return md;
  }

  /** Zones named by the host's aggregates (`availability_zone` metadata, comma-split). */
  zones(host: HostState): ReadonlySet<string> {
    let zones = this.zonesOf.get(host.aggregates);
    if (!zones) {
      zones = aggregateMetadataWithKey(host, 'availability_zone').get('availability_zone') ?? NO_ZONES;
      this.zonesOf.set(host.aggregates, zones);
    }
    return zones;
  }

  /**
   * `get_weight_multiplier(host, key, config)`: aggregate override (MIN), else the config value.
   * Called once per host per weigher when some aggregate overrides the key, so the answer is found
   * without building a string or parsing anything (the config value is checked, not keyed).
   */
  multiplier(host: HostState, key: string, configValue: number): number {
    const aggs = host.aggregates;
    if (aggs.length === 0) return configValue;
    let byKey = this.multipliersOf.get(aggs);
    if (!byKey) {
      byKey = new Map();
      this.multipliersOf.set(aggs, byKey);
    }
    const hit = byKey.get(key);
    if (hit !== undefined && Object.is(hit.configValue, configValue)) return hit.value;
    const value = aggregateNumber(host, key, configValue, 'float');
    byKey.set(key, { configValue, value });
    return value;
  }
}

/** A membership's multiplier for one key, and the config value it was derived with. */
interface CachedMultiplier {
  configValue: number;
  value: number;
}

const NO_ZONES: ReadonlySet<string> = new Set();

/**
 * `aggregate_metadata_get_by_host(host)`: every metadata key of the host's aggregates mapped to the
 * union of its values, each value split on ',' and stripped.
 */
export function aggregateMetadata(host: HostState): Metadata {
  const out = new Map<string, Set<string>>();
  for (const agg of host.aggregates) addMetadata(out, agg);
  return out;
}

/**
 * `aggregate_metadata_get_by_host(host, key)`: like aggregateMetadata but only over the aggregates
 * that carry `key` (their other keys come along, as in Nova).
 */
export function aggregateMetadataWithKey(host: HostState, key: string): Metadata {
  const out = new Map<string, Set<string>>();
  for (const agg of host.aggregates) if (Object.hasOwn(agg.metadata, key)) addMetadata(out, agg);
  return out;
}

/** Adds each metadata value of `agg`, split on ',' and stripped, to the set of its key. */
function addMetadata(out: Map<string, Set<string>>, agg: Aggregate): void {
  for (const [k, v] of Object.entries(agg.metadata)) {
    let set = out.get(k);
    if (!set) {
      set = new Set();
      out.set(k, set);
    }
    for (const part of v.split(',')) set.add(part.trim());
  }
}

/** `aggregate_values_from_key(host, key)`: the raw (unsplit) values of `key` across the host's aggregates. */
export function aggregateValues(host: HostState, key: string): string[] {
  const out: string[] = [];
  for (const agg of host.aggregates) {
    if (Object.hasOwn(agg.metadata, key)) {
      const v = agg.metadata[key];
      if (!out.includes(v)) out.push(v);
    }
  }
  return out;
}

/**
 * `validate_num_values(aggregate values of key, default, cast, min)`: the minimum over the host's
 * aggregates, or the default when none set it; one unparsable value means the default (Nova logs it).
 */
export function aggregateNumber(
  host: HostState,
  key: string,
  fallback: number,
  cast: 'int' | 'float',
): number {
  if (host.aggregates.length === 0) return fallback;
  const values = aggregateValues(host, key);
  if (values.length === 0) return fallback;
  let min = Infinity;
  for (const v of values) {
    const n = cast === 'int' ? pyInt(v) : pyFloat(v);
    if (n === undefined) return fallback;
    if (n < min) min = n;
  }
  return min;
}

/**
 * A per-request memo of aggregate-derived answers, keyed by the host's aggregates array (the fleet
 * makes hosts with the same membership share it), so a 100k-host pass computes each answer once per
 * distinct membership and allocates nothing per host.
 */
export type AggregateMemo<T> = Map<readonly Aggregate[], T>;

/**
 * The memo's answer for the host's membership, `compute(host, arg)` the first time. `compute`
 * should be a module-level function (not a closure made per host) to keep the hot path allocation-free.
 */
export function memoizedByAggregates<T, A>(
  memo: AggregateMemo<T>,
  host: HostState,
  compute: (host: HostState, arg: A) => T,
  arg: A,
): T {
  let answer = memo.get(host.aggregates);
  if (answer === undefined) {
    answer = compute(host, arg);
    memo.set(host.aggregates, answer);
  }
  return answer;
}

/**
 * Nova's `validate_num_values(aggregate_values_from_key(host, key), fallback, cast, min)` with the
 * ValueError fallback, memoised. Shared by the Aggregate* limit and ratio filters.
 */
export function aggregateLimit(
  host: HostState,
  memo: AggregateMemo<number>,
  key: string,
  fallback: number,
  cast: 'int' | 'float',
): number {
  if (host.aggregates.length === 0) return fallback;
  let limit = memo.get(host.aggregates);
  if (limit === undefined) {
    limit = aggregateNumber(host, key, fallback, cast);
    memo.set(host.aggregates, limit);
  }
  return limit;
}

/** Where `aggregateLimit` took its value from, in words, for explanations. */
export function aggregateLimitOrigin(
  host: HostState,
  key: string,
  cast: 'int' | 'float',
  fallback: string,
): string {
  const values = aggregateValues(host, key);
  if (values.length === 0) return `${fallback}; no aggregate of the host sets ${key}`;
  const parse = cast === 'int' ? pyInt : pyFloat;
  const bad = values.find((v) => parse(v) === undefined);
  if (bad !== undefined) {
    return `${fallback}, because aggregate metadata ${key}='${bad}' is not ${cast === 'int' ? 'an integer' : 'a number'}`;
  }
  return `the smallest aggregate metadata ${key} among ${values.map((v) => `'${v}'`).join(', ')}`;
}

/**
 * The host's availability zones: its aggregates' `availability_zone` metadata, else the host's own
 * `availability_zone` field (reports carry it), else `[DEFAULT] default_availability_zone`.
 */
export function availabilityZones(
  host: HostState,
  defaultZone: string,
  memberships: MembershipFacts,
): ReadonlySet<string> {
  const zones = memberships.zones(host);
  return zones.size > 0 ? zones : new Set([host.availability_zone ?? defaultZone]);
}

/** True when `zone` is one of the host's availability zones (no allocation on the hot path). */
export function inAvailabilityZone(
  host: HostState,
  zone: string,
  defaultZone: string,
  memberships: MembershipFacts,
): boolean {
  const zones = memberships.zones(host);
  return zones.size > 0 ? zones.has(zone) : (host.availability_zone ?? defaultZone) === zone;
}
