import { defineBatchWeigher } from './batch.js';
import { configMultiplier } from './multiplier.js';

/** Instances in an I/O-heavy task state; the default multiplier (-1.0) prefers quieter hosts. */
export const IoOpsWeigher = defineBatchWeigher({
  name: 'IoOpsWeigher',
  novaPath: 'nova.scheduler.weights.io_ops.IoOpsWeigher',
  minval: 0,
  weigh: (host) => host.num_io_ops,
  weighAll: (hosts, out) => {
    for (let i = 0; i < hosts.length; i++) out[i] = hosts[i].num_io_ops;
  },
  ...configMultiplier('io_ops_weight_multiplier'),
});
