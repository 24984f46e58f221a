import type { Fleet } from '../fleet.js';
import type { PlacementQuery } from './resourceRequest.js';

/** One trait demand on the root provider, with the stage that reports it and where it came from. */
export interface TraitRule {
  stage: string;
  trait: string;
  required: boolean;
  source: string;
}

export const REQUIRED_TRAITS = 'Placement:required_traits';
export const FORBIDDEN_TRAITS = 'Placement:forbidden_traits';

/** The request filters' traits first (they ran before Placement), then the query's own. */
export function traitRules(rootRules: readonly TraitRule[], query: PlacementQuery): TraitRule[] {
  const source = (t: string) => query.traitSources.get(t) ?? 'the request';
  return [
    ...rootRules,
    ...query.required.map((trait) => ({
      stage: REQUIRED_TRAITS,
      trait,
      required: true,
      source: source(trait),
    })),
    ...query.forbidden.map((trait) => ({
      stage: FORBIDDEN_TRAITS,
      trait,
      required: false,
      source: source(trait),
    })),
  ];
}

const PASS = -1;

/**
 * Trait rules decided once per distinct trait set of the fleet (hosts of one kind share it), so the
 * per-host cost is two typed-array reads. Every set is decided up front, as for AggregateVerdicts.
 */
export class TraitVerdicts {
  /** Per trait group: PASS, or the index of the first rule it breaks. */
  private readonly verdicts: Int16Array;
  private readonly groupOf: Int32Array;

  constructor(
    private readonly rules: readonly TraitRule[],
    index: Fleet,
  ) {
    const { groupOf, groups } = index.traits;
    this.groupOf = groupOf;
    this.verdicts = Int16Array.from(groups, (traits) => firstBroken(rules, traits));
  }

  /** The first rule the host at position `i` breaks, or null. */
  failing(i: number): TraitRule | null {
    const v = this.verdicts[this.groupOf[i]];
    return v === PASS ? null : this.rules[v];
  }
}

function firstBroken(rules: readonly TraitRule[], traits: ReadonlySet<string>): number {
  for (let k = 0; k < rules.length; k++) {
    if (traits.has(rules[k].trait) !== rules[k].required) return k;
  }
  return PASS;
}

export function explainTrait(rule: TraitRule): string {
  return rule.required
    ? `lacks trait ${rule.trait}, required by ${rule.source}`
    : `has trait ${rule.trait}, forbidden by ${rule.source}`;
}
