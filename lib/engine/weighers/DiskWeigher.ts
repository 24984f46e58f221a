import { defineBatchWeigher } from './batch.js';
import { configMultiplier } from './multiplier.js';

/** Free local disk: more is better with a positive multiplier (spreading). */
export const DiskWeigher = defineBatchWeigher({
  name: 'DiskWeigher',
  novaPath: 'nova.scheduler.weights.disk.DiskWeigher',
  minval: 0,
  weigh: (host) => host.free_disk_mb,
  weighAll: (hosts, out) => {
    for (let i = 0; i < hosts.length; i++) out[i] = hosts[i].free_disk_mb;
  },
  ...configMultiplier('disk_weight_multiplier'),
});
