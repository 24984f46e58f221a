import { defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/** Hypervisor version as Nova's integer (6.0.0 is 6000000); newer wins by default, unknown counts as 0. */
export const HypervisorVersionWeigher = defineWeigher({
  name: 'HypervisorVersionWeigher',
  novaPath: 'nova.scheduler.weights.hypervisor_version.HypervisorVersionWeigher',
  weigh: (host) => host.hypervisor_version ?? 0,
  ...configMultiplier('hypervisor_version_weight_multiplier'),
});
