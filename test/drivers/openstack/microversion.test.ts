import { describe, expect, it } from 'vitest';
import {
  assertMicroversion,
  compareMicroversions,
  NOVA_DEFAULT_MICROVERSION,
} from '../../../lib/drivers/openstack/microversion.js';
import { ConfigError } from '../../../lib/model/errors.js';

describe('compute microversions', () => {
  it.each([
    ['2.9', '2.25', -1],
    ['2.65', '2.65', 0],
    ['2.100', '2.96', 1],
  ])('compares %s with %s numerically', (a, b, sign) => {
    expect(Math.sign(compareMicroversions(a, b))).toBe(sign);
  });

  it('defaults to a version that has auto block migration, async checks and abort of queued migrations', () => {
    expect(compareMicroversions(NOVA_DEFAULT_MICROVERSION, '2.65')).toBeGreaterThanOrEqual(0);
  });

  it.each([['2.25'], ['2.65'], ['2.100']])('accepts %s', (version) => {
    expect(assertMicroversion(version)).toBe(version);
  });

  it.each([
    ['2.24', /too old/],
    ['2', /look like/],
    ['latest', /look like/],
  ])('rejects %s with a reason', (version, reason) => {
    expect(() => assertMicroversion(version)).toThrow(ConfigError);
    expect(() => assertMicroversion(version)).toThrow(reason);
  });
});
