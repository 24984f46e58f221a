/**
 * What a live-migration request tells Placid's move filters and weigher. The planner asks the
 * placement engine for each destination with a RequestSpec that carries this typed `placid`
 * context: the moving VM (zone, role, CPU demand), the limits, and a read-only view of the fleet
 * as the moves planned so far leave it. Filters read only the request and the host, so they stay
 * pure; the planner changes the view only between two requests, never during one.
 * A request without the context (an ordinary boot) passes every host of these filters.
 */
import type { RequestSpec } from '../model/requestSpec.js';
import type { HostLoad } from './stealModel.js';

/** The fleet as the moves planned so far leave it. */
export interface PlannedFleetView {
  /** The host's CPU capacity and demand (vCPUs) after the planned moves; undefined when its steal is unknown. */
  load(host: string): HostLoad | undefined;
  /** True when the host was contended or had suffering VMs at detection: the plan relieves it and never fills it. */
  contended(host: string): boolean;
  /** How many VMs of `role` each host runs after the planned moves (hosts without any are absent). */
  roleCounts(role: string): ReadonlyMap<string, number>;
}

export interface MoveContext {
  readonly vm: {
    readonly uuid: string;
    /** The VM's zone: a live migration never leaves it (replicas are spread across zones on purpose). */
    readonly availabilityZone: string;
    readonly role: string | null;
    /** CPU demand (used + stolen) in vCPUs: what arrives at the destination. */
    readonly demandVcpus: number;
  };
  readonly limits: {
    readonly hostStealThresholdPercent: number;
    readonly maxSameRolePerHost: number;
  };
  readonly fleet: PlannedFleetView;
}

/** A RequestSpec for one planned live migration. */
export type MoveRequestSpec = RequestSpec & { readonly placid: MoveContext };

/**
 * The move context of a request, or undefined for requests that are not planned moves.
 * @example const move = moveContextOf(spec); if (!move) return PASS_ALL;
 */
export function moveContextOf(spec: RequestSpec): MoveContext | undefined {
  return (spec as Partial<MoveRequestSpec>).placid;
}
