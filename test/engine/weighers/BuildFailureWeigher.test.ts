import { describe, expect, it } from 'vitest';
import { BuildFailureWeigher } from '../../../lib/engine/weighers/BuildFailureWeigher.js';
import { makeConfig } from '../../helpers/factories.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

describe('BuildFailureWeigher', () => {
  it('weighs the failed build count, positive (the multiplier carries the sign)', () => {
    // Prepare
    const hosts = hostsWith([{ failed_builds: 3 }, { failed_builds: 0 }]);
    // Act
    const raw = rawWeights(BuildFailureWeigher, hosts);
    // Assess
    expect(raw).toEqual([3, 0]);
  });

  it('sinks failing hosts by up to the default 1000000', () => {
    const hosts = hostsWith([{ failed_builds: 0 }, { failed_builds: 1 }, { failed_builds: 4 }]);
    expect(finalWeights(BuildFailureWeigher, hosts)).toEqual([0, -250_000, -1_000_000]);
  });

  it('gives 0 to every host when all failed equally (min-max)', () => {
    const hosts = hostsWith([{ failed_builds: 2 }, { failed_builds: 2 }]);
    expect(finalWeights(BuildFailureWeigher, hosts)).toEqual([0, 0]);
  });

  it('negates an aggregate override after taking its minimum', () => {
    const hosts = hostsWith([
      { failed_builds: 1, aggregates: [{ name: 'a', metadata: { build_failure_weight_multiplier: '10' } }] },
      { failed_builds: 0 },
    ]);
    const config = makeConfig({ filter_scheduler: { build_failure_weight_multiplier: 100 } });
    expect(finalWeights(BuildFailureWeigher, hosts, undefined, config)).toEqual([-10, 0]);
  });
});
