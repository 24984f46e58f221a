import { describe, expect, it } from 'vitest';
import { NumInstancesWeigher } from '../../../lib/engine/weighers/NumInstancesWeigher.js';
import { makeConfig } from '../../helpers/factories.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

const packing = makeConfig({ filter_scheduler: { num_instances_weight_multiplier: 1 } });

describe('NumInstancesWeigher', () => {
  it('weighs num_instances', () => {
    // Prepare
    const hosts = hostsWith([{ num_instances: 7 }, { num_instances: 0 }]);
    // Act
    const raw = rawWeights(NumInstancesWeigher, hosts);
    // Assess
    expect(raw).toEqual([7, 0]);
  });

  it.each([
    ['normalises min-max, so the emptiest host gets 0', [2, 4, 6], [0, 0.5, 1]],
    ['gives 0 to every host when all have the same count', [5, 5], [0, 0]],
  ])('%s', (_case, counts, expected) => {
    const hosts = hostsWith(counts.map((n) => ({ num_instances: n })));
    expect(finalWeights(NumInstancesWeigher, hosts, undefined, packing)).toEqual(expected);
  });

  it('contributes nothing with the default multiplier (0.0)', () => {
    const hosts = hostsWith([{ num_instances: 1 }, { num_instances: 9 }]);
    expect(finalWeights(NumInstancesWeigher, hosts)).toEqual([0, 0]);
  });
});
