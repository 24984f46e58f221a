/**
 * How the simulated world shares a host's CPU shortfall among its VMs: a scenario's
 * `contention_model`. `proportional` is the model the planner predicts with
 * (lib/rebalance/stealModel.ts): every VM on the host loses the same share (D − C) / D of its
 * demand. `unequal` is one the planner does not know: the shortfall D − C is shared in proportion
 * to demand ÷ √vCPUs, so a small VM loses a larger share of its demand than a wide one beside it
 * (a wide VM has more runnable threads for the host scheduler to pick), and no VM loses more than
 * MAX_UNEQUAL_SHARE of its demand. Grading Placid in this world tests its predictions against a
 * world that does not follow them.
 */
export const CONTENTION_MODELS = ['proportional', 'unequal'] as const;
export type ContentionModel = (typeof CONTENTION_MODELS)[number];

/** A VM never loses all its demand in the unequal world (its load5 would be unbounded). */
const MAX_UNEQUAL_SHARE = 0.95;

/** The weight of a VM's demand in the unequal world's sharing. */
export function unequalWeight(vcpus: number): number {
  return 1 / Math.sqrt(vcpus);
}

/**
 * The share of its demand a VM loses: `hostLost` is the host's (D − C) / D; `weighted` the sum of
 * demand × weight over the host's VMs, in the unequal world.
 */
export function vmLostShare(
  model: ContentionModel,
  hostLost: number,
  hostDemand: number,
  weighted: number,
  vcpus: number,
): number {
  if (model === 'proportional' || hostLost === 0 || weighted <= 0) return hostLost;
  const shortfall = hostLost * hostDemand;
  return Math.min(MAX_UNEQUAL_SHARE, (shortfall * unequalWeight(vcpus)) / weighted);
}
