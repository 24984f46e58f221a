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
 * Nova's request filters plus Placement's allocation-candidate query, over in-memory host states.
 * Throws NoValidHostError when the request itself can have no candidates (an unknown forced host, or
 * a tenant without its required aggregate) and RequestError for malformed Placement extra specs.
 * With `record` false no removal is built at all.
 */
export function placementPrefilter(
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  record: boolean,
): PrefilterResult {
  const check = new HostCheck(spec, ctx, fleetIndex(hosts));
  const removals: PrefilterRemoval[] = [];
  // Survivor positions go to a reused scratch buffer first, so the result is allocated once at its
  // exact size: a fleet-sized array made up front lands in V8's large-object space, and faulting in
  // those fresh pages costs more than the scan itself.
  const positions = scratchPositions(hosts.length);
  let n = 0;
  if (!record) n = check.collect(positions);
  else {
    for (let i = 0; i < hosts.length; i++) {
      const host = hosts[i];
      const stage = check.stageOf(host, i);
      if (stage === null) positions[n++] = i;
      else removals.push({ host, stage, reason: () => check.explain(host, i) });
    }
  }
  const kept = new Array<HostState>(n);
  for (let j = 0; j < n; j++) kept[j] = hosts[positions[j]];
  return { hosts: kept, removals };
}

/**
 * placementPrefilter without explanations, as candidate positions: writes the ascending positions
 * of the hosts that pass to `out` (at least hosts.length long) and returns how many.
 */
export function prefilterPositions(
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  out: Int32Array,
): number {
  return new HostCheck(spec, ctx, fleetIndex(hosts)).collect(out);
}

/** One buffer for every call: the scan is synchronous, so no two calls use it at once. */
let positionBuffer = new Int32Array(1024);
function scratchPositions(n: number): Int32Array {
  if (positionBuffer.length < n) positionBuffer = new Int32Array(Math.max(n, positionBuffer.length * 2));
  return positionBuffer;
}
