import { defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/** Instance count; off by default (multiplier 0.0), negative spreads, positive packs. Min-max normalised. */
export const NumInstancesWeigher = defineWeigher({
  name: 'NumInstancesWeigher',
  novaPath: 'nova.scheduler.weights.num_instances.NumInstancesWeigher',
  weigh: (host) => host.num_instances,
  ...configMultiplier('num_instances_weight_multiplier'),
});
