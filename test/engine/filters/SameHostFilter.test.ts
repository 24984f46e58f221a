import { describe, expect, it } from 'vitest';
import { PASS_ALL } from '../../../lib/engine/filter.js';
import { SameHostFilter } from '../../../lib/engine/filters/SameHostFilter.js';
import { makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, prepared, survivors } from './filterHarness.js';

const hint = (same_host: string | string[]) => makeSpec({ scheduler_hints: { same_host } });

describe('SameHostFilter', () => {
  it('runs once per request and not on rebuild', () => {
    expect(flags(SameHostFilter)).toEqual({ once: true, rebuild: false });
  });

  it.each([
    ['the hint is absent', makeSpec()],
    ['the hint is an empty list', hint([])],
    ['the hint is an empty string', hint('')],
    ['the hint is only another hint', makeSpec({ scheduler_hints: { different_host: 'u1' } })],
  ])('passes every host when %s', (_case, spec) => {
    expect(prepared(SameHostFilter, { spec })).toBe(PASS_ALL);
  });

  it.each([
    ['fails a host without instances', [], 'u1', false],
    ['fails a host running other instances', ['u2', 'u3'], 'u1', false],
    ['passes a host running the named instance', ['u2', 'u1'], 'u1', true],
    ['passes a host running any one of a list', ['u3'], ['u1', 'u2', 'u3'], true],
    ['fails a host running none of a list', ['u4'], ['u1', 'u2'], false],
    ['does not mistake object built-ins for instances', ['u1'], 'toString', false],
  ])('%s', (_case, instances, uuids, expected) => {
    expect(passes(SameHostFilter, host({ instances }), { spec: hint(uuids) })).toBe(expected);
  });

  it('keeps only the hosts of the named instances', async () => {
    // Prepare
    const hosts = [
      host({ host: 'a', instances: ['u1'] }),
      host({ host: 'b', instances: ['u9'] }),
      host({ host: 'c' }),
    ];
    // Act
    const left = await survivors(SameHostFilter, hosts, { spec: hint(['u1', 'u9']) });
    // Assess
    expect(left).toEqual(['a', 'b']);
  });

  it('is skipped for the second instance of a multi-create', async () => {
    const hosts = [host()];
    expect(await survivors(SameHostFilter, hosts, { spec: hint('u1'), index: 1 })).toEqual(['h0']);
  });

  it.each([
    ['an empty host', [], 'host runs no instances, so it runs none of u1, u2 (same_host hint)'],
    ['a host running others', ['x', 'y'], "none of the host's 2 instances is among u1, u2 (same_host hint)"],
  ])('explains %s', (_case, instances, expected) => {
    expect(explanation(SameHostFilter, host({ instances }), { spec: hint(['u1', 'u2']) })).toBe(expected);
  });
});
