import { describe, expect, it } from 'vitest';
import { PASS_ALL } from '../../../lib/engine/filter.js';
import { ServerGroupAffinityFilter } from '../../../lib/engine/filters/ServerGroupAffinityFilter.js';
import type { InstanceGroup } from '../../../lib/model/requestSpec.js';
import { makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, prepared, rebuildSpec, survivors } from './filterHarness.js';

const group = (policy: InstanceGroup['policy'], hosts: string[]) =>
  makeSpec({ instance_group: { name: 'web', policy, members: ['m1'], hosts } });

describe('ServerGroupAffinityFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(ServerGroupAffinityFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['the request has no server group', makeSpec()],
    ['the group is anti-affinity', group('anti-affinity', ['h1'])],
    ['the group is soft-affinity (a weigher handles it)', group('soft-affinity', ['h1'])],
    ['no member of the group is placed yet', group('affinity', [])],
  ])('passes every host when %s', (_case, spec) => {
    expect(prepared(ServerGroupAffinityFilter, { spec })).toBe(PASS_ALL);
  });

  it.each([
    ['passes the host of the members', 'h1', ['h1'], true],
    ['fails any other host', 'h2', ['h1'], false],
    ['passes any host of members spread by earlier moves', 'h3', ['h1', 'h3'], true],
    ['compares host names exactly', 'H1', ['h1'], false],
  ])('%s', (_case, name, groupHosts, expected) => {
    expect(
      passes(ServerGroupAffinityFilter, host({ host: name }), { spec: group('affinity', groupHosts) }),
    ).toBe(expected);
  });

  it('follows the group hosts for the second instance of a multi-create', async () => {
    // Prepare: the first instance went to h1, which the scheduler appended to the group's hosts.
    const hosts = [host({ host: 'h1' }), host({ host: 'h2' })];
    // Act
    const left = await survivors(ServerGroupAffinityFilter, hosts, {
      spec: group('affinity', ['h1']),
      index: 1,
    });
    // Assess
    expect(left).toEqual(['h1']);
  });

  it('passes every host on a rebuild', async () => {
    const spec = rebuildSpec({ instance_group: { policy: 'affinity', hosts: ['h1'] } });
    expect(await survivors(ServerGroupAffinityFilter, [host({ host: 'h2' })], { spec })).toEqual(['h2']);
  });

  it('explains with the group and its hosts', () => {
    const text = explanation(ServerGroupAffinityFilter, host({ host: 'h9' }), {
      spec: group('affinity', ['h1', 'h2']),
    });
    expect(text).toBe('server group web has the affinity policy and its members are on h1, h2, not on h9');
  });
});
