import type { HostState } from '../model/hostState.js';
import { type FleetIndex, fleetIndex } from './prefilter/fleetIndex.js';

/**
 * One decision's surviving hosts as positions into the fleet's own (indexed) hosts array. The
 * pre-filter, the filters and the weighers hand these on instead of copying host lists: at 100k
 * hosts a list of the survivors is a large object, and each fresh one costs more than the scan
 * that fills it (new memory pages), while positions reuse one buffer per decision.
 */
export interface Candidates {
  /** The fleet's hosts, in fleet order. */
  readonly hosts: readonly HostState[];
  readonly index: FleetIndex;
  /** Ascending positions of the survivors in positions[0..count); stages compact it in place. */
  readonly positions: Int32Array;
  count: number;
  /**
   * Per aggregate membership group of the fleet (index.aggregates): -1 where the group's hosts may
   * be candidates, anything else where none is (the pre-filter's aggregate verdicts: later stages
   * only remove hosts). Null or absent when not known.
   */
  memberships?: Int16Array | null;
  /**
   * 1 for each fleet position the pre-filter can never keep (fitLimits' blocked), built when first
   * called (few decisions read it); null: not known.
   */
  blocked?: (() => Uint8Array) | null;
}

/**
 * Every host of `hosts` as a candidate, in `positions` (at least hosts.length long). A host list
 * that is not the fleet's (a multi-create's consumed copies) is indexed as a fleet of its own.
 */
export function listCandidates(hosts: readonly HostState[], positions: Int32Array): Candidates {
  for (let i = 0; i < hosts.length; i++) positions[i] = i;
  return {
    hosts,
    index: fleetIndex(hosts),
    positions,
    count: hosts.length,
    memberships: null,
    blocked: null,
  };
}

/** The survivors as a new host list. */
export function candidateHosts(c: Candidates): HostState[] {
  const out = new Array<HostState>(c.count);
  for (let j = 0; j < c.count; j++) out[j] = c.hosts[c.positions[j]];
  return out;
}

/** The working memory of one decision: survivor positions and their weights. */
export interface DecisionBuffers {
  positions: Int32Array;
  weights: Float64Array;
}

/**
 * Buffers not in use. A decision awaits (async filters, claims), so decisions can overlap and each
 * takes its own set; the set goes back when the decision ends, and the next one reuses it.
 */
const idle: DecisionBuffers[] = [];
const MAX_IDLE = 4;

/** Buffers for a fleet of `n` hosts; give them back with releaseBuffers. */
export function acquireBuffers(n: number): DecisionBuffers {
  const b = idle.pop() ?? { positions: new Int32Array(0), weights: new Float64Array(0) };
  if (b.positions.length < n) {
    const size = Math.max(n, b.positions.length * 2, 1024);
    b.positions = new Int32Array(size);
    b.weights = new Float64Array(size);
  }
  return b;
}

export function releaseBuffers(b: DecisionBuffers): void {
  if (idle.length < MAX_IDLE) idle.push(b);
}
