import { defineBatchWeigher } from './batch.js';
import { configMultiplier } from './multiplier.js';

/** Instance count; off by default (multiplier 0.0), negative spreads, positive packs. Min-max normalised. */
export const NumInstancesWeigher = defineBatchWeigher({
  name: 'NumInstancesWeigher',
  novaPath: 'nova.scheduler.weights.num_instances.NumInstancesWeigher',
  weigh: (host) => host.num_instances,
  weighAll: (hosts, out) => {
    for (let i = 0; i < hosts.length; i++) out[i] = hosts[i].num_instances;
  },
  ...configMultiplier('num_instances_weight_multiplier'),
});
