import { membersOnHost, softGroupMembers } from '../serverGroups.js';
import { defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/**
 * For a 'soft-affinity' group, the number of group members already on the host: packing the group
 * is preferred without being required. Other requests weigh every host 0 and are skipped.
 */
export const ServerGroupSoftAffinityWeigher = defineWeigher<readonly string[]>({
  name: 'ServerGroupSoftAffinityWeigher',
  novaPath: 'nova.scheduler.weights.affinity.ServerGroupSoftAffinityWeigher',
  prepare: (spec) => softGroupMembers(spec, 'soft-affinity'),
  weigh: (host, _spec, members) => membersOnHost(host, members),
  ...configMultiplier('soft_affinity_weight_multiplier'),
});
