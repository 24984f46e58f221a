import { ALL_ZERO, defineWeigher } from '../engine/weigher.js';
import { type MoveContext, moveContextOf } from './moveContext.js';

/**
 * How much the predicted steal counts against free RAM (RAMWeigher's multiplier is 1 by default):
 * CPU headroom is what a rebalancing move is for, so it weighs twice as much.
 */
export const PREDICTED_STEAL_WEIGHT_MULTIPLIER = 2;

/**
 * The planner's weigher: the share of its CPU capacity a destination still has free after the
 * VM's demand arrives, 1 - demand / capacity (negative when oversubscribed). Ordering hosts by it
 * orders them by predicted steal after the move (steal = max(0, 1 - capacity / demand) is
 * monotonic in the same ratio), and among hosts predicted to steal nothing it prefers the most
 * headroom. Registered as a custom weigher (Plugins.weighers), so it needs no Nova option.
 */
export const PredictedStealWeigher = defineWeigher<MoveContext>({
  name: 'PredictedStealWeigher',
  minval: -1,
  prepare: (spec) => moveContextOf(spec) ?? ALL_ZERO,
  weigh: (host, _spec, move) => {
    const load = move.fleet.load(host.host);
    if (load === undefined || load.capacityVcpus <= 0) return -1;
    return 1 - (load.demandVcpus + move.vm.demandVcpus) / load.capacityVcpus;
  },
  multiplier: () => PREDICTED_STEAL_WEIGHT_MULTIPLIER,
  uniformMultiplier: () => true,
});
