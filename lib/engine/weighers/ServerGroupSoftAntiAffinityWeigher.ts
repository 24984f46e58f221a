import { membersOnHost, softGroupMembers } from '../serverGroups.js';
import { defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/**
 * For a 'soft-anti-affinity' group, minus the number of group members already on the host: spreading
 * the group is preferred without being required. Other requests weigh every host 0 and are skipped.
 */
export const ServerGroupSoftAntiAffinityWeigher = defineWeigher<readonly string[]>({
  name: 'ServerGroupSoftAntiAffinityWeigher',
  novaPath: 'nova.scheduler.weights.affinity.ServerGroupSoftAntiAffinityWeigher',
  prepare: (spec) => softGroupMembers(spec, 'soft-anti-affinity'),
  // 0 - n rather than -n: a host without members weighs +0, not -0.
  weigh: (host, _spec, members) => 0 - membersOnHost(host, members),
  ...configMultiplier('soft_anti_affinity_weight_multiplier'),
});
