import { describe, expect, it } from 'vitest';
import { PASS, PASS_ALL } from '../../../lib/engine/filter.js';
import { AllHostsFilter } from '../../../lib/engine/filters/AllHostsFilter.js';
import { makeContext, makeSpec } from '../../helpers/factories.js';
import { flags, host, prepared, survivors } from './filterHarness.js';

describe('AllHostsFilter', () => {
  it('runs once per request and not on rebuild', () => {
    expect(flags(AllHostsFilter)).toEqual({ once: true, rebuild: false });
  });

  it('skips the per-host loop', () => {
    expect(prepared(AllHostsFilter)).toBe(PASS_ALL);
  });

  it.each([
    ['a disabled, down host', { service: { disabled: true, up: false } }],
    ['a host with no resources at all', { free_ram_mb: -100, vcpus_total: 0 }],
    ['a busy host', { num_io_ops: 100, num_instances: 1000 }],
  ])('passes %s', (_case, input) => {
    expect(AllHostsFilter.check(host(input), makeSpec(), undefined, makeContext()) === PASS).toBe(true);
  });

  it('keeps every host through the filter handler', async () => {
    // Prepare
    const hosts = [host({ host: 'a' }), host({ host: 'b', service: { disabled: true, up: false } })];
    // Act
    const left = await survivors(AllHostsFilter, hosts);
    // Assess
    expect(left).toEqual(['a', 'b']);
  });
});
