import type { Aggregate } from '../../model/hostState.js';
import type { Metadata } from '../aggregates.js';
import { compileExtraSpec, type ExtraSpecMatcher } from '../extraSpecsOps.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';

const SCOPE = 'aggregate_instance_extra_specs';

interface Requirement {
  /** The flavor extra spec key, as the operator wrote it. */
  specKey: string;
  /** The aggregate metadata key it reads. */
  key: string;
  req: string;
  matches: ExtraSpecMatcher;
}

interface State {
  requirements: Requirement[];
  /** The answer per aggregate membership: hosts with the same aggregates share one array (Fleet). */
  answers: WeakMap<readonly Aggregate[], boolean>;
}

// Rendered only for a host `check` rejected, so one requirement is unmet; a key the metadata holds
// has at least one value (splitting yields one part).
const EXTRA_SPEC_UNMET = reject<State>((host, _spec, state, ctx) => {
  const metadata = ctx.fleet.memberships.metadata(host);
  const unmet = firstUnmet(metadata, state.requirements)!;
  const values = metadata.get(unmet.key);
  const rule = `flavor extra spec ${unmet.specKey}='${unmet.req}'`;
  if (!values) {
    const aggs = host.aggregates.map((a) => a.name).join(', ') || 'none';
    return `${rule} needs aggregate metadata '${unmet.key}', which none of ${host.host}'s aggregates (${aggs}) set`;
  }
  return `${rule} matches none of ${host.host}'s aggregate values ${unmet.key}=${[...values].join(',')}`;
});

/**
 * Nova's AggregateInstanceExtraSpecsFilter: flavor extra specs scoped `aggregate_instance_extra_specs:`
 * (split on the first ':') or unscoped must match at least one value of that key in the host's
 * aggregate metadata (comma-split, unioned across aggregates). An unscoped key the aggregates lack
 * fails the host, unlike ComputeCapabilitiesFilter.
 */
export const AggregateInstanceExtraSpecsFilter = defineFilter<State>({
  name: 'AggregateInstanceExtraSpecsFilter',
  runFilterOncePerRequest: true,
  prepare: (spec) => {
    const requirements = relevantSpecs(spec.flavor.extra_specs);
    return requirements.length > 0 ? { requirements, answers: new WeakMap() } : PASS_ALL;
  },
  check: (host, _spec, state, ctx) => {
    let answer = state.answers.get(host.aggregates);
    if (answer === undefined) {
      answer = firstUnmet(ctx.fleet.memberships.metadata(host), state.requirements) === undefined;
      state.answers.set(host.aggregates, answer);
    }
    return answer ? PASS : EXTRA_SPEC_UNMET;
  },
});

function relevantSpecs(extraSpecs: Readonly<Record<string, string>>): Requirement[] {
  const out: Requirement[] = [];
  for (const [specKey, req] of Object.entries(extraSpecs)) {
    const colon = specKey.indexOf(':');
    if (colon >= 0 && specKey.slice(0, colon) !== SCOPE) continue; // hw:, capabilities:, trait: ... are not ours
    const key = colon >= 0 ? specKey.slice(colon + 1) : specKey;
    out.push({ specKey, key, req, matches: compileExtraSpec(req, `flavor extra spec ${specKey}='${req}'`) });
  }
  return out;
}

function firstUnmet(metadata: Metadata, requirements: readonly Requirement[]): Requirement | undefined {
  for (const r of requirements) {
    const values = metadata.get(r.key);
    if (!values || values.size === 0) return r;
    let matched = false;
    for (const v of values) {
      if (r.matches(v)) {
        matched = true;
        break;
      }
    }
    if (!matched) return r;
  }
  return undefined;
}
