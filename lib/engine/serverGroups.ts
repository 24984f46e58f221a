import type { HostState } from '../model/hostState.js';
import type { InstanceGroup, RequestSpec } from '../model/requestSpec.js';
import { ALL_ZERO, type AllZero } from './weigher.js';

/** Helpers shared by the server-group filters and weighers. */

/** The group's member uuids without repeats (Nova holds them in a set). */
export function distinctMembers(group: InstanceGroup): readonly string[] {
  return [...new Set(group.members)];
}

/** How many of `members` the host runs. */
export function membersOnHost(host: HostState, members: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < members.length; i++) if (Object.hasOwn(host.instances, members[i])) count++;
  return count;
}

/** The group's name for messages: its name, else its uuid. */
export function groupName(group: InstanceGroup): string {
  return group.name ?? group.uuid ?? '(unnamed)';
}

/** For the soft weighers: distinct members when the request's group has `policy`, else ALL_ZERO. */
export function softGroupMembers(
  spec: RequestSpec,
  policy: InstanceGroup['policy'],
): readonly string[] | AllZero {
  const group = spec.instance_group;
  if (!group || group.policy !== policy || group.members.length === 0) return ALL_ZERO;
  return distinctMembers(group);
}
