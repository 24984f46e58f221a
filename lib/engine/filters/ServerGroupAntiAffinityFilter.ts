import { RequestError } from '../../model/errors.js';
import type { InstanceGroup } from '../../model/requestSpec.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';
import { pyInt } from '../pyStrings.js';
import { distinctMembers, groupName, membersOnHost } from '../serverGroups.js';

interface State {
  /** The group's members, without repeats. */
  members: readonly string[];
  maxPerHost: number;
  instanceUuid: string | null;
  group: string;
}

const GROUP_MEMBERS_HERE = reject<State>((host, _spec, state) => {
  const here = state.members.filter((m) => Object.hasOwn(host.instances, m));
  return (
    `host already runs ${here.length} member(s) of anti-affinity server group ${state.group} ` +
    `(${here.join(', ')}); max_server_per_host is ${state.maxPerHost}`
  );
});

/**
 * For a server group with the `anti-affinity` policy, passes hosts running fewer of the group's
 * members than its `max_server_per_host` rule (default 1). A host already running the instance
 * itself passes, so a move operation may re-check its source. Runs for every instance, so the
 * members placed earlier in this request count.
 */
export const ServerGroupAntiAffinityFilter = defineFilter<State>({
  name: 'ServerGroupAntiAffinityFilter',
  prepare: (spec) => {
    const group = spec.instance_group;
    if (group?.policy !== 'anti-affinity') return PASS_ALL;
    return {
      members: distinctMembers(group),
      maxPerHost: maxServerPerHost(group),
      instanceUuid: spec.instance_uuid,
      group: groupName(group),
    };
  },
  check: (host, _spec, state) => {
    if (state.instanceUuid !== null && Object.hasOwn(host.instances, state.instanceUuid)) return PASS;
    return membersOnHost(host, state.members) < state.maxPerHost ? PASS : GROUP_MEMBERS_HERE;
  },
});

function maxServerPerHost(group: InstanceGroup): number {
  const rule = group.rules.max_server_per_host;
  if (rule === undefined) return 1;
  const max = pyInt(rule);
  if (max === undefined) {
    throw new RequestError(
      `ServerGroupAntiAffinityFilter: server group ${groupName(group)} has rule max_server_per_host='${rule}', ` +
        'which is not an integer',
    );
  }
  return max;
}
