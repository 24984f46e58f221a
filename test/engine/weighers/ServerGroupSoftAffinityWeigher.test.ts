import { describe, expect, it } from 'vitest';
import { ServerGroupSoftAffinityWeigher } from '../../../lib/engine/weighers/ServerGroupSoftAffinityWeigher.js';
import type { RequestSpecInput } from '../../../lib/model/requestSchema.js';
import { makeSpec } from '../../helpers/factories.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

const group = (policy: string, members = ['m1', 'm2', 'm3']) =>
  ({ policy, members }) as NonNullable<RequestSpecInput['instance_group']>;

const hosts = () =>
  hostsWith([{ instances: [] }, { instances: ['m1', 'x'] }, { instances: ['m1', 'm2', 'y'] }]);

describe('ServerGroupSoftAffinityWeigher', () => {
  it.each([
    ['no server group', null],
    ['a soft-anti-affinity group', group('soft-anti-affinity')],
    ['a hard affinity group', group('affinity')],
    ['a group without members', group('soft-affinity', [])],
  ])('is skipped for a request with %s', (_case, instanceGroup) => {
    // Prepare
    const spec = makeSpec({ instance_group: instanceGroup });
    // Act
    const raw = rawWeights(ServerGroupSoftAffinityWeigher, hosts(), spec);
    // Assess
    expect(raw).toBe('ALL_ZERO');
  });

  it('counts the group members on each host', () => {
    const spec = makeSpec({ instance_group: group('soft-affinity') });
    expect(rawWeights(ServerGroupSoftAffinityWeigher, hosts(), spec)).toEqual([0, 1, 2]);
  });

  it('counts a member listed twice in the group once', () => {
    const spec = makeSpec({ instance_group: group('soft-affinity', ['m1', 'm1', 'm2']) });
    expect(rawWeights(ServerGroupSoftAffinityWeigher, hosts(), spec)).toEqual([0, 1, 2]);
  });

  it('prefers the host with the most members (min-max)', () => {
    const spec = makeSpec({ instance_group: group('soft-affinity') });
    expect(finalWeights(ServerGroupSoftAffinityWeigher, hosts(), spec)).toEqual([0, 0.5, 1]);
  });
});
