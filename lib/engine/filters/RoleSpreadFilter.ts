import { type MoveContext, moveContextOf } from '../../rebalance/moveContext.js';
import { defineFilter, PASS_ALL } from '../filter.js';

interface State {
  role: string;
  max: number;
  fleet: MoveContext['fleet'];
}

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
    return { role: move.vm.role, max: move.limits.maxSameRolePerHost, fleet: move.fleet };
  },
  hostPasses: (host, _spec, s) => s.fleet.roleCount(host.host, s.role) < s.max,
  explain: (host, _spec, s) =>
    `host already runs ${s.fleet.roleCount(host.host, s.role)} VM(s) of role ${s.role} ` +
    `(planned moves included); max_same_role_per_host is ${s.max}`,
});
