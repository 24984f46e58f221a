import { defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/** Instances in an I/O-heavy task state; the default multiplier (-1.0) prefers quieter hosts. */
export const IoOpsWeigher = defineWeigher({
  name: 'IoOpsWeigher',
  novaPath: 'nova.scheduler.weights.io_ops.IoOpsWeigher',
  minval: 0,
  weigh: (host) => host.num_io_ops,
  ...configMultiplier('io_ops_weight_multiplier'),
});
