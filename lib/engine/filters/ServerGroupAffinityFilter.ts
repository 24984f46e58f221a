import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';
import { groupName } from '../serverGroups.js';

interface State {
  hosts: ReadonlySet<string>;
  group: string;
}

const AWAY_FROM_GROUP = reject<State>(
  (host, _spec, state) =>
    `server group ${state.group} has the affinity policy and its members are on ${[...state.hosts].join(', ')}, ` +
    `not on ${host.host}`,
);

/**
 * For a server group with the `affinity` policy, passes only the hosts its members already run on
 * (including earlier instances of this request). A group with no members placed yet leaves every
 * host open. Runs for every instance, so the second instance follows the first.
 */
export const ServerGroupAffinityFilter = defineFilter<State>({
  name: 'ServerGroupAffinityFilter',
  prepare: (spec) => {
    const group = spec.instance_group;
    if (group?.policy !== 'affinity' || group.hosts.length === 0) return PASS_ALL;
    return { hosts: new Set(group.hosts), group: groupName(group) };
  },
  check: (host, _spec, state) => (state.hosts.has(host.host) ? PASS : AWAY_FROM_GROUP),
});
