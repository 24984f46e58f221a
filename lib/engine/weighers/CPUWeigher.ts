import { defineFactWeigher, freeVcpus } from './hostFacts.js';
import { configMultiplier } from './multiplier.js';

/** Free vCPUs after overcommit: more is better with a positive multiplier (spreading). */
export const CPUWeigher = defineFactWeigher({
  name: 'CPUWeigher',
  novaPath: 'nova.scheduler.weights.cpu.CPUWeigher',
  minval: 0,
  weigh: (host, _spec, _state, ctx) => freeVcpus(host, ctx.config),
  fact: 'freeVcpus',
  ...configMultiplier('cpu_weight_multiplier'),
});
