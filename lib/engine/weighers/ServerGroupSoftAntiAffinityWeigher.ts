import { pendingWeigher } from '../notImplemented.js';

export const ServerGroupSoftAntiAffinityWeigher = pendingWeigher(
  'ServerGroupSoftAntiAffinityWeigher',
  'nova.scheduler.weights.affinity.ServerGroupSoftAntiAffinityWeigher',
);
