import { describe, expect, it } from 'vitest';
import { PASS_ALL } from '../../../lib/engine/filter.js';
import { ServerGroupAntiAffinityFilter } from '../../../lib/engine/filters/ServerGroupAntiAffinityFilter.js';
import { RequestError } from '../../../lib/model/errors.js';
import type { InstanceGroup } from '../../../lib/model/requestSpec.js';
import { makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, prepared, rebuildSpec, survivors } from './filterHarness.js';

const MEMBERS = ['m1', 'm2', 'm3'];

function antiSpec(
  rules: Record<string, string> = {},
  more: { instance_uuid?: string; members?: string[] } = {},
) {
  return makeSpec({
    instance_uuid: more.instance_uuid ?? 'new',
    instance_group: { name: 'db', policy: 'anti-affinity', members: more.members ?? MEMBERS, rules },
  });
}

describe('ServerGroupAntiAffinityFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(ServerGroupAntiAffinityFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each<[string, InstanceGroup['policy'] | null]>([
    ['the request has no server group', null],
    ['the group is affinity', 'affinity'],
    ['the group is soft-anti-affinity (a weigher handles it)', 'soft-anti-affinity'],
  ])('passes every host when %s', (_case, policy) => {
    const spec = makeSpec({ instance_group: policy ? { policy, members: MEMBERS } : null });
    expect(prepared(ServerGroupAntiAffinityFilter, { spec })).toBe(PASS_ALL);
  });

  it.each([
    ['passes a host without members', ['x', 'y'], {}, true],
    ['fails a host with one member under the default max of 1', ['m1'], {}, false],
    [
      'passes a host with one member when max_server_per_host is 2',
      ['m1', 'x'],
      { max_server_per_host: '2' },
      true,
    ],
    ['fails a host at max_server_per_host', ['m1', 'm3'], { max_server_per_host: '2' }, false],
    ['reads the rule as Python int() does', ['m1', 'm2'], { max_server_per_host: ' 3 ' }, true],
    ['ignores other rules', ['m1'], { other: 'value' }, false],
  ])('%s', (_case, instances, rules, expected) => {
    expect(passes(ServerGroupAntiAffinityFilter, host({ instances }), { spec: antiSpec(rules) })).toBe(
      expected,
    );
  });

  it('passes the host that already runs the instance being moved', () => {
    const h = host({ instances: ['m1', 'm2'] });
    expect(passes(ServerGroupAntiAffinityFilter, h, { spec: antiSpec({}, { instance_uuid: 'm1' }) })).toBe(
      true,
    );
  });

  it('counts a member listed twice once', () => {
    const h = host({ instances: ['m1'] });
    const spec = antiSpec({ max_server_per_host: '2' }, { members: ['m1', 'm1'] });
    expect(passes(ServerGroupAntiAffinityFilter, h, { spec })).toBe(true);
  });

  it.each([['2.5'], ['two'], ['']])('rejects the rule max_server_per_host=%j with a RequestError', (rule) => {
    const run = () =>
      prepared(ServerGroupAntiAffinityFilter, { spec: antiSpec({ max_server_per_host: rule }) });
    expect(run).toThrow(RequestError);
    expect(run).toThrow(`server group db has rule max_server_per_host='${rule}', which is not an integer`);
  });

  it('counts the earlier instances of a multi-create', async () => {
    // Prepare: the first instance m1 was placed on h1, whose instance map now holds it.
    const hosts = [host({ host: 'h1', instances: ['m1'] }), host({ host: 'h2' })];
    // Act
    const left = await survivors(ServerGroupAntiAffinityFilter, hosts, {
      spec: antiSpec({}, { instance_uuid: 'm2' }),
      index: 1,
    });
    // Assess
    expect(left).toEqual(['h2']);
  });

  it('passes every host on a rebuild', async () => {
    const spec = rebuildSpec({ instance_group: { policy: 'anti-affinity', members: ['m1'] } });
    expect(await survivors(ServerGroupAntiAffinityFilter, [host({ instances: ['m1'] })], { spec })).toEqual([
      'h0',
    ]);
  });

  it('explains with the members on the host and the limit', () => {
    const h = host({ instances: ['m3', 'x', 'm1'] });
    expect(
      explanation(ServerGroupAntiAffinityFilter, h, { spec: antiSpec({ max_server_per_host: '2' }) }),
    ).toBe(
      'host already runs 2 member(s) of anti-affinity server group db (m1, m3); max_server_per_host is 2',
    );
  });
});
