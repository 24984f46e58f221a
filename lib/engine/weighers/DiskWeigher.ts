import { defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/** Free local disk: more is better with a positive multiplier (spreading). */
export const DiskWeigher = defineWeigher({
  name: 'DiskWeigher',
  novaPath: 'nova.scheduler.weights.disk.DiskWeigher',
  minval: 0,
  weigh: (host) => host.free_disk_mb,
  ...configMultiplier('disk_weight_multiplier'),
});
