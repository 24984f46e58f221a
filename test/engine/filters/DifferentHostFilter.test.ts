import { describe, expect, it } from 'vitest';
import { PASS_ALL } from '../../../lib/engine/filter.js';
import { DifferentHostFilter } from '../../../lib/engine/filters/DifferentHostFilter.js';
import { makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, prepared, survivors } from './filterHarness.js';

const hint = (different_host: string | string[]) => makeSpec({ scheduler_hints: { different_host } });

describe('DifferentHostFilter', () => {
  it('runs once per request and not on rebuild', () => {
    expect(flags(DifferentHostFilter)).toEqual({ once: true, rebuild: false });
  });

  it.each([
    ['the hint is absent', makeSpec()],
    ['the hint is an empty list', hint([])],
    ['the hint is an empty string', hint('')],
    ['the hint is only another hint', makeSpec({ scheduler_hints: { same_host: 'u1' } })],
  ])('passes every host when %s', (_case, spec) => {
    expect(prepared(DifferentHostFilter, { spec })).toBe(PASS_ALL);
  });

  it.each([
    ['passes a host without instances', [], 'u1', true],
    ['passes a host running other instances', ['u2', 'u3'], 'u1', true],
    ['fails a host running the named instance', ['u1', 'u2'], 'u1', false],
    ['fails a host running any one of a list', ['u3'], ['u1', 'u2', 'u3'], false],
    ['passes a host running none of a list', ['u4'], ['u1', 'u2', 'u3'], true],
    ['does not mistake object built-ins for instances', ['u1'], 'constructor', true],
  ])('%s', (_case, instances, uuids, expected) => {
    expect(passes(DifferentHostFilter, host({ instances }), { spec: hint(uuids) })).toBe(expected);
  });

  it('keeps the hosts away from the named instances', async () => {
    // Prepare
    const hosts = [
      host({ host: 'a', instances: ['u1'] }),
      host({ host: 'b', instances: ['u9'] }),
      host({ host: 'c' }),
    ];
    // Act
    const left = await survivors(DifferentHostFilter, hosts, { spec: hint(['u1', 'u9']) });
    // Assess
    expect(left).toEqual(['c']);
  });

  it('is skipped for the second instance of a multi-create', async () => {
    const hosts = [host({ instances: ['u1'] })];
    expect(await survivors(DifferentHostFilter, hosts, { spec: hint('u1'), index: 1 })).toEqual(['h0']);
  });

  it('explains with the instances the host already runs', () => {
    const h = host({ instances: ['u1', 'u2', 'u3'] });
    expect(explanation(DifferentHostFilter, h, { spec: hint(['u3', 'u1', 'u7']) })).toBe(
      'host already runs u3, u1, named in the different_host hint',
    );
  });
});
