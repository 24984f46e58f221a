import type { HostState } from '../../model/hostState.js';
import type { RequestSpec } from '../../model/requestSpec.js';
import type { EngineContext } from '../context.js';
import { fleetIndex } from './fleetIndex.js';
import { HostCheck } from './hostCheck.js';

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
 * Nova's request filters plus Placement's allocation-candidate query, over in-memory host states,
 * prepared for one request. Throws NoValidHostError when the request itself can have no
 * candidates (an unknown forced host, or a tenant without its required aggregate) and RequestError
 * for malformed Placement extra specs. `collect` finds the candidates; `stageOf` and `explain`
 * name, for a host it left out, the stage that removed it and why.
 */
export function prefilterCheck(
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
): HostCheck {
  return new HostCheck(spec, ctx, fleetIndex(hosts));
}

/**
 * The pre-filter's survivors as a host list, and with `record` every other host with its stage
 * (the hosts `collect` left out, named afterwards).
 */
export function placementPrefilter(
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  record: boolean,
): PrefilterResult {
  const check = prefilterCheck(hosts, spec, ctx);
  const positions = new Int32Array(hosts.length);
  const n = check.collect(positions);
  const kept = new Array<HostState>(n);
  for (let j = 0; j < n; j++) kept[j] = hosts[positions[j]];
  const removals: PrefilterRemoval[] = [];
  if (record) {
    let next = 0;
    for (let i = 0; i < hosts.length; i++) {
      if (next < n && positions[next] === i) {
        next++;
        continue;
      }
      const host = hosts[i];
      removals.push({
        host,
        stage: check.stageOf(host, i) ?? 'Placement',
        reason: () => check.explain(host, i),
      });
    }
  }
  return { hosts: kept, removals };
}

/**
 * The pre-filter's candidates as positions: writes the ascending positions of the hosts that pass
 * to `out` (at least hosts.length long) and returns how many.
 */
export function prefilterPositions(
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  out: Int32Array,
): number {
  return prefilterCheck(hosts, spec, ctx).collect(out);
}
