import { pendingWeigher } from '../notImplemented.js';

export const BuildFailureWeigher = pendingWeigher(
  'BuildFailureWeigher',
  'nova.scheduler.weights.compute.BuildFailureWeigher',
);
