import { allocationRatio } from '../ratios.js';
import { defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/** Free vCPUs after overcommit: more is better with a positive multiplier (spreading). */
export const CPUWeigher = defineWeigher({
  name: 'CPUWeigher',
  novaPath: 'nova.scheduler.weights.cpu.CPUWeigher',
  minval: 0,
  weigh: (host, _spec, _state, ctx) =>
    host.vcpus_total * allocationRatio(host, 'cpu', ctx.config) - host.vcpus_used,
  ...configMultiplier('cpu_weight_multiplier'),
});
