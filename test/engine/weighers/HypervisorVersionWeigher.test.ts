import { describe, expect, it } from 'vitest';
import { HypervisorVersionWeigher } from '../../../lib/engine/weighers/HypervisorVersionWeigher.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

describe('HypervisorVersionWeigher', () => {
  it.each([
    ['weighs the integer hypervisor version', 6_002_000, 6_002_000],
    ['treats an unknown version as 0', null, 0],
  ])('%s', (_case, version, expected) => {
    // Prepare
    const hosts = hostsWith([{ hypervisor_version: version }]);
    // Act
    const raw = rawWeights(HypervisorVersionWeigher, hosts);
    // Assess
    expect(raw).toEqual([expected]);
  });

  it.each([
    ['prefers newer hosts, min-max over all hosts', [null, 2_000_000, 4_000_000], [0, 0.5, 1]],
    ['gives 0 to every host when all run the same version', [7_000_000, 7_000_000], [0, 0]],
  ])('%s', (_case, versions, expected) => {
    const hosts = hostsWith(versions.map((v) => ({ hypervisor_version: v })));
    expect(finalWeights(HypervisorVersionWeigher, hosts)).toEqual(expected);
  });
});
