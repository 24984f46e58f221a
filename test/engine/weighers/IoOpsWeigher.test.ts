import { describe, expect, it } from 'vitest';
import { IoOpsWeigher } from '../../../lib/engine/weighers/IoOpsWeigher.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

describe('IoOpsWeigher', () => {
  it('weighs num_io_ops', () => {
    // Prepare
    const hosts = hostsWith([{ num_io_ops: 3 }, { num_io_ops: 0 }]);
    // Act
    const raw = rawWeights(IoOpsWeigher, hosts);
    // Assess
    expect(raw).toEqual([3, 0]);
  });

  it.each([
    ['prefers idle hosts by default (multiplier -1, x / max)', [0, 2, 8], [0, -0.25, -1]],
    ['gives every host -1.0 when all are equally busy', [4, 4], [-1, -1]],
    ['gives 0 to every host when all are idle', [0, 0, 0], [0, 0, 0]],
  ])('%s', (_case, ops, expected) => {
    const hosts = hostsWith(ops.map((n) => ({ num_io_ops: n })));
    expect(finalWeights(IoOpsWeigher, hosts)).toEqual(expected);
  });
});
