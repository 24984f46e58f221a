import { defineFilter, PASS, PASS_ALL, reject } from '../../engine/filter.js';
import { moveContextOf } from '../moveContext.js';

interface State {
  role: string;
  max: number;
  /** Host → VMs of the role there, planned moves included. */
  counts: ReadonlyMap<string, number>;
}

const ROLE_FULL = reject<State>(
  (host, _spec, s) =>
    `host already runs ${s.counts.get(host.host) ?? 0} VM(s) of role ${s.role} ` +
    `(planned moves included); max_same_role_per_host is ${s.max}`,
);

/**
 * Placid's rebalancer: passes hosts holding fewer VMs of the moving VM's role than
 * `[rebalance] max_same_role_per_host`, counting the moves planned before this one, so losing one
 * host takes at most that many replicas of a service. VMs without a role, and requests that are
 * not planned moves, pass every host.
 */
export const RoleSpreadFilter = defineFilter<State>({
  name: 'RoleSpreadFilter',
  prepare: (spec) => {
    const move = moveContextOf(spec);
    if (!move || move.vm.role === null) return PASS_ALL;
    const counts = move.fleet.roleCounts(move.vm.role);
    const max = move.limits.maxSameRolePerHost;
    for (const n of counts.values()) if (n >= max) return { role: move.vm.role, max, counts };
    return PASS_ALL;
  },
  check: (host, _spec, s) => ((s.counts.get(host.host) ?? 0) < s.max ? PASS : ROLE_FULL),
});
