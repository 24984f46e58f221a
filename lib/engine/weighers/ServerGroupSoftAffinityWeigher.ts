import type { RequestSpec } from '../../model/requestSpec.js';
import { ALL_ZERO, type AllZero, defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/**
 * For a 'soft-affinity' group, the number of group members already on the host: packing the group
 * is preferred without being required. Other requests weigh every host 0 and are skipped.
 */
export const ServerGroupSoftAffinityWeigher = defineWeigher<readonly string[]>({
  name: 'ServerGroupSoftAffinityWeigher',
  novaPath: 'nova.scheduler.weights.affinity.ServerGroupSoftAffinityWeigher',
  prepare: (spec) => groupMembers(spec, 'soft-affinity'),
  weigh: (host, _spec, members) => {
    let onHost = 0;
    for (let i = 0; i < members.length; i++) if (Object.hasOwn(host.instances, members[i])) onHost++;
    return onHost;
  },
  ...configMultiplier('soft_affinity_weight_multiplier'),
});

/** Distinct member uuids when the request's group has `policy`, else ALL_ZERO (Nova counts a set). */
function groupMembers(spec: RequestSpec, policy: string): readonly string[] | AllZero {
  const group = spec.instance_group;
  if (!group || group.policy !== policy || group.members.length === 0) return ALL_ZERO;
  return [...new Set(group.members)];
}
