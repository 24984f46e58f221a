import { describe, expect, it } from 'vitest';
import { CPUWeigher } from '../../../lib/engine/weighers/CPUWeigher.js';
import { makeConfig, makeHost } from '../../helpers/factories.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

describe('CPUWeigher', () => {
  it.each([
    ["scales vcpus_total by the host's own ratio", { cpu_allocation_ratio: 2 }, makeConfig(), 8 * 2 - 2],
    ['uses initial_cpu_allocation_ratio (4.0) when the host reports none', {}, makeConfig(), 8 * 4 - 2],
    [
      "keeps the host's ratio over [DEFAULT] cpu_allocation_ratio",
      { cpu_allocation_ratio: 2 },
      makeConfig({ DEFAULT: { cpu_allocation_ratio: 1.5 } }),
      8 * 2 - 2,
    ],
    [
      'takes [DEFAULT] cpu_allocation_ratio for a host that reports none',
      { cpu_allocation_ratio: null },
      makeConfig({ DEFAULT: { cpu_allocation_ratio: 1.5 } }),
      8 * 1.5 - 2,
    ],
  ])('%s', (_case, fields, config, expected) => {
    // Prepare
    const host = makeHost({ vcpus_total: 8, vcpus_used: 2, ...fields });
    // Act
    const raw = rawWeights(CPUWeigher, [host], undefined, config);
    // Assess
    expect(raw).toEqual([expected]);
  });

  it('reports a negative raw weight for an overcommitted host', () => {
    const host = makeHost({ vcpus_total: 2, vcpus_used: 5, cpu_allocation_ratio: 1 });
    expect(rawWeights(CPUWeigher, [host])).toEqual([-3]);
  });

  it.each([
    ['normalises by the largest free count, not min-max', [4, 8, 16], [0.25, 0.5, 1]],
    ['gives every host 1.0 when all have the same free vCPUs', [8, 8], [1, 1]],
    ['clamps an overcommitted host to 0', [-3, 6], [0, 1]],
    ['gives 0 to every host when none has free vCPUs', [0, -2], [0, 0]],
  ])('%s', (_case, free, expected) => {
    const hosts = hostsWith(
      free.map((f) => ({ vcpus_total: 16, vcpus_used: 16 - f, cpu_allocation_ratio: 1 })),
    );
    expect(finalWeights(CPUWeigher, hosts)).toEqual(expected);
  });

  it("applies each host's aggregate multiplier after normalising over all hosts", () => {
    const hosts = hostsWith([
      {
        vcpus_total: 8,
        cpu_allocation_ratio: 1,
        aggregates: [{ name: 'a', metadata: { cpu_weight_multiplier: '4' } }],
      },
      { vcpus_total: 4, cpu_allocation_ratio: 1 },
    ]);
    expect(finalWeights(CPUWeigher, hosts)).toEqual([4, 0.5]);
  });
});
