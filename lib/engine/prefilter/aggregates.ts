import type { Aggregate, HostState } from '../../model/hostState.js';
import type { RequestedDestination } from '../../model/requestSpec.js';
import type { Fleet } from '../fleet.js';
import { aggregateId } from '../fleetIndex.js';

/** A Placement `member_of` condition: in at least one of `ids`, or (forbid) in none of them. */
export interface AggregateRule {
  stage: string;
  ids: ReadonlySet<string>;
  forbid: boolean;
  /** Who asked, for explanations, e.g. `of availability zone az1`. */
  purpose: string;
  /** The aggregates' names when the rule was built from the fleet's aggregates (else ids are shown). */
  names?: readonly string[];
}

export const MEMBER_OF = 'Placement:member_of';

/**
 * `requested_destination.aggregates` (each entry a comma list: any of; entries ANDed) and
 * `forbidden_aggregates` (none of). Entries are aggregate uuids, or names for aggregates without one.
 */
export function memberOfRules(dest: RequestedDestination | null): AggregateRule[] {
  const rules: AggregateRule[] = [];
  for (const entry of dest?.aggregates ?? []) {
    const ids = splitIds(entry);
    if (ids.size > 0) {
      rules.push({
        stage: MEMBER_OF,
        ids,
        forbid: false,
        purpose: 'requested by requested_destination.aggregates',
      });
    }
  }
  const forbidden = new Set((dest?.forbidden_aggregates ?? []).flatMap((e) => [...splitIds(e)]));
  if (forbidden.size > 0) {
    rules.push({
      stage: MEMBER_OF,
      ids: forbidden,
      forbid: true,
      purpose: 'requested_destination.forbidden_aggregates',
    });
  }
  return rules;
}

function splitIds(entry: string): Set<string> {
  return new Set(
    entry
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
  );
}

const PASS = -1;

/**
 * Aggregate rules decided once per distinct aggregates array (Fleet makes hosts with the same
 * membership share one), so the per-host cost is two typed-array reads. Every membership is decided
 * up front: there are few, and the per-host loops then hold no evaluation code.
 */
export class AggregateVerdicts {
  /** Per membership group: PASS (-1), or the index of the first rule it breaks. */
  readonly verdicts: Int16Array;
  /** Host position → membership group. */
  readonly groupOf: Int32Array;

  constructor(
    private readonly rules: readonly AggregateRule[],
    index: Fleet,
  ) {
    const { groupOf, groups } = index.aggregates;
    this.groupOf = groupOf;
    this.verdicts = Int16Array.from(groups, (aggs) => firstBroken(rules, aggs));
  }

  /** The first rule the host at position `i` breaks, or null. */
  failing(i: number): AggregateRule | null {
    const v = this.verdicts[this.groupOf[i]];
    return v === PASS ? null : this.rules[v];
  }
}

function firstBroken(rules: readonly AggregateRule[], aggs: readonly Aggregate[]): number {
  for (let k = 0; k < rules.length; k++) {
    const rule = rules[k];
    if (aggs.some((a) => rule.ids.has(aggregateId(a))) === rule.forbid) return k;
  }
  return PASS;
}

export function explainAggregateRule(rule: AggregateRule, host: HostState): string {
  if (rule.forbid) {
    const hits = host.aggregates.filter((a) => rule.ids.has(aggregateId(a))).map((a) => a.name);
    return `is in aggregate ${hits.join(', ')}, excluded by ${rule.purpose}`;
  }
  const wanted = (rule.names ?? [...rule.ids]).join(', ');
  const mine = host.aggregates.length ? host.aggregates.map((a) => a.name).join(', ') : 'none';
  return `is in none of the aggregates ${rule.purpose} (${wanted}); its aggregates: ${mine}`;
}
