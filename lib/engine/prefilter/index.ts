import type { HostState } from '../../model/hostState.js';
import type { RequestSpec } from '../../model/requestSpec.js';
import type { EngineContext } from '../context.js';

/** A host the Placement-equivalent pre-filter dropped, and why (built lazily). */
export interface PrefilterRemoval {
  host: HostState;
  /** The pre-filter stage, e.g. `Placement:MEMORY_MB` or `map_az_to_placement_aggregate`. */
  stage: string;
  reason: () => string;
}

export interface PrefilterResult {
  hosts: HostState[];
  removals: PrefilterRemoval[];
}

/**
 * Nova's request filters plus Placement's allocation-candidate query, over in-memory host states.
 * Throws NoValidHostError when the request itself can have no candidates (e.g. an unknown forced host).
 * (Stub until the pre-filter work lands: every host passes.)
 */
export function placementPrefilter(
  hosts: readonly HostState[],
  _spec: RequestSpec,
  _ctx: EngineContext,
  _record: boolean,
): PrefilterResult {
  return { hosts: hosts.slice(), removals: [] };
}
