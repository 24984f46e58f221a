import { defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/** Free RAM: more is better with a positive multiplier (spreading is Nova's default). */
export const RAMWeigher = defineWeigher({
  name: 'RAMWeigher',
  novaPath: 'nova.scheduler.weights.ram.RAMWeigher',
  minval: 0,
  weigh: (host) => host.free_ram_mb,
  ...configMultiplier('ram_weight_multiplier'),
});
