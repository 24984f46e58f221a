import { describe, expect, it } from 'vitest';
import { ServerGroupSoftAntiAffinityWeigher } from '../../../lib/engine/weighers/ServerGroupSoftAntiAffinityWeigher.js';
import type { RequestSpecInput } from '../../../lib/model/requestSchema.js';
import { makeSpec } from '../../helpers/factories.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

const group = (policy: string, members = ['m1', 'm2', 'm3']) =>
  ({ policy, members }) as NonNullable<RequestSpecInput['instance_group']>;

const hosts = () =>
  hostsWith([{ instances: ['z'] }, { instances: ['m1', 'x'] }, { instances: ['m1', 'm2'] }]);

describe('ServerGroupSoftAntiAffinityWeigher', () => {
  it.each([
    ['no server group', null],
    ['a soft-affinity group', group('soft-affinity')],
    ['a hard anti-affinity group', group('anti-affinity')],
    ['a group without members', group('soft-anti-affinity', [])],
  ])('is skipped for a request with %s', (_case, instanceGroup) => {
    // Prepare
    const spec = makeSpec({ instance_group: instanceGroup });
    // Act
    const raw = rawWeights(ServerGroupSoftAntiAffinityWeigher, hosts(), spec);
    // Assess
    expect(raw).toBe('ALL_ZERO');
  });

  it('weighs minus the number of group members on each host (0 when none, not -0)', () => {
    const spec = makeSpec({ instance_group: group('soft-anti-affinity') });
    const raw = rawWeights(ServerGroupSoftAntiAffinityWeigher, hosts(), spec);
    expect(raw).toEqual([0, -1, -2]);
    expect(Object.is((raw as number[])[0], 0)).toBe(true);
  });

  it('prefers the host with the fewest members (min-max)', () => {
    const spec = makeSpec({ instance_group: group('soft-anti-affinity') });
    expect(finalWeights(ServerGroupSoftAntiAffinityWeigher, hosts(), spec)).toEqual([1, 0.5, 0]);
  });
});
