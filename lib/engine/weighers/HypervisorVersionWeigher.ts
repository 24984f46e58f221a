import { pendingWeigher } from '../notImplemented.js';

export const HypervisorVersionWeigher = pendingWeigher(
  'HypervisorVersionWeigher',
  'nova.scheduler.weights.hypervisor_version.HypervisorVersionWeigher',
);
