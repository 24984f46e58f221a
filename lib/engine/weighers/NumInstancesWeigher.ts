import { pendingWeigher } from '../notImplemented.js';

export const NumInstancesWeigher = pendingWeigher(
  'NumInstancesWeigher',
  'nova.scheduler.weights.num_instances.NumInstancesWeigher',
);
