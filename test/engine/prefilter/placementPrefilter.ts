import type { EngineContext } from '../../../lib/engine/context.js';
import { Fleet } from '../../../lib/engine/fleet.js';
import { HostCheck } from '../../../lib/engine/prefilter/hostCheck.js';
import type { HostState } from '../../../lib/model/hostState.js';
import type { RequestSpec } from '../../../lib/model/requestSpec.js';

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
 * The engine's pre-filter (HostCheck, as the scheduler runs it) over a host list, for tests: Nova's
 * request filters plus Placement's allocation-candidate query over in-memory host states:
 * the survivors as a host list, and with `record` every other host with its stage. Throws
 * NoValidHostError when the request itself can have no candidates (an unknown forced host, or a
 * tenant without its required aggregate) and RequestError for malformed Placement extra specs.
 */
export function placementPrefilter(
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  record: boolean,
): PrefilterResult {
  const fleet = Fleet.from(hosts);
  const check = new HostCheck(spec, ctx, fleet);
  const kept = new Set(check.candidates());
  const removals: PrefilterRemoval[] = [];
  const survivors: HostState[] = [];
  fleet.hosts.forEach((host, i) => {
    if (kept.has(host)) survivors.push(hosts[i]);
    else if (record)
      removals.push({
        host: hosts[i],
        stage: check.stageOf(host, i) ?? 'Placement',
        reason: () => check.explain(host, i),
      });
  });
  return { hosts: survivors, removals };
}
