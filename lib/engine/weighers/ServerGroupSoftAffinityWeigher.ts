import { pendingWeigher } from '../notImplemented.js';

export const ServerGroupSoftAffinityWeigher = pendingWeigher(
  'ServerGroupSoftAffinityWeigher',
  'nova.scheduler.weights.affinity.ServerGroupSoftAffinityWeigher',
);
