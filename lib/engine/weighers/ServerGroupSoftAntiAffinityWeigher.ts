import type { RequestSpec } from '../../model/requestSpec.js';
import { ALL_ZERO, type AllZero, defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/**
 * For a 'soft-anti-affinity' group, minus the number of group members already on the host: spreading
 * the group is preferred without being required. Other requests weigh every host 0 and are skipped.
 */
export const ServerGroupSoftAntiAffinityWeigher = defineWeigher<readonly string[]>({
  name: 'ServerGroupSoftAntiAffinityWeigher',
  novaPath: 'nova.scheduler.weights.affinity.ServerGroupSoftAntiAffinityWeigher',
  prepare: (spec) => groupMembers(spec, 'soft-anti-affinity'),
  weigh: (host, _spec, members) => {
    let onHost = 0;
    for (let i = 0; i < members.length; i++) if (Object.hasOwn(host.instances, members[i])) onHost++;
    // 0 - n rather than -n: a host without members weighs +0, not -0.
    return 0 - onHost;
  },
  ...configMultiplier('soft_anti_affinity_weight_multiplier'),
});

/** Distinct member uuids when the request's group has `policy`, else ALL_ZERO (Nova counts a set). */
function groupMembers(spec: RequestSpec, policy: string): readonly string[] | AllZero {
  const group = spec.instance_group;
  if (!group || group.policy !== policy || group.members.length === 0) return ALL_ZERO;
  return [...new Set(group.members)];
}
