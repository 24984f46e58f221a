import type { FleetIndex } from './fleetIndex.js';
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

const UNKNOWN = -2;
const PASS = -1;

/**
 * Trait rules evaluated once per distinct trait set of the fleet (hosts of one kind share it), so the
 * per-host cost is two typed-array reads.
 */
export class TraitVerdicts {
  private readonly verdicts: Int16Array;
  private readonly groupOf: Int32Array;
  private readonly groups: readonly ReadonlySet<string>[];

  constructor(
    private readonly rules: readonly TraitRule[],
    index: FleetIndex,
  ) {
    ({ groupOf: this.groupOf, groups: this.groups } = index.traits);
    this.verdicts = new Int16Array(this.groups.length).fill(UNKNOWN);
  }

  /** The first rule the host at position `i` breaks, or null. */
  failing(i: number): TraitRule | null {
    const g = this.groupOf[i];
    let v = this.verdicts[g];
    if (v === UNKNOWN) {
      v = this.evaluate(this.groups[g]);
      this.verdicts[g] = v;
    }
    return v === PASS ? null : this.rules[v];
  }

  private evaluate(traits: ReadonlySet<string>): number {
    for (let k = 0; k < this.rules.length; k++) {
      const rule = this.rules[k];
      if (traits.has(rule.trait) !== rule.required) return k;
    }
    return PASS;
  }
}

export function explainTrait(rule: TraitRule): string {
  return rule.required
    ? `lacks trait ${rule.trait}, required by ${rule.source}`
    : `has trait ${rule.trait}, forbidden by ${rule.source}`;
}
