import { describe, expect, it } from 'vitest';
import {
  distinctMembers,
  groupName,
  membersOnHost,
  softGroupMembers,
} from '../../lib/engine/serverGroups.js';
import { ALL_ZERO } from '../../lib/engine/weigher.js';
import type { InstanceGroup } from '../../lib/model/requestSpec.js';
import { makeHost, makeSpec } from '../helpers/factories.js';

function group(overrides: Partial<InstanceGroup> = {}): InstanceGroup {
  return { policy: 'soft-affinity', members: [], hosts: [], rules: {}, ...overrides };
}

const instance = (uuid: string) => ({ uuid });

describe('server group helpers', () => {
  it('lists each member once', () => {
    expect(distinctMembers(group({ members: ['a', 'b', 'a'] }))).toEqual(['a', 'b']);
  });

  it('counts the members the host runs', () => {
    // Prepare
    const host = makeHost({ instances: { a: instance('a'), c: instance('c'), x: instance('x') } });

    // Act
    const count = membersOnHost(host, ['a', 'b', 'c']);

    // Assess
    expect(count).toBe(2);
  });

  it.each([
    ['its name', group({ name: 'web', uuid: 'u1' }), 'web'],
    ['its uuid when it has no name', group({ uuid: 'u1' }), 'u1'],
    ['a placeholder when it has neither', group(), '(unnamed)'],
  ])('names a group by %s', (_case, g, expected) => {
    expect(groupName(g)).toBe(expected);
  });

  it.each([
    ['the request has no group', null],
    ['the group has another policy', group({ policy: 'soft-anti-affinity', members: ['a'] })],
    ['the group has no members', group({ members: [] })],
  ])('skips a soft weigher when %s', (_case, instance_group) => {
    expect(softGroupMembers(makeSpec({ instance_group }), 'soft-affinity')).toBe(ALL_ZERO);
  });

  it('gives a soft weigher the distinct members of a group with its policy', () => {
    // Prepare
    const spec = makeSpec({ instance_group: group({ members: ['a', 'a', 'b'] }) });

    // Act
    const members = softGroupMembers(spec, 'soft-affinity');

    // Assess
    expect(members).toEqual(['a', 'b']);
  });
});
