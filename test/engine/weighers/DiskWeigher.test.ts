import { describe, expect, it } from 'vitest';
import { DiskWeigher } from '../../../lib/engine/weighers/DiskWeigher.js';
import { makeConfig } from '../../helpers/factories.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

describe('DiskWeigher', () => {
  it('weighs free_disk_mb as reported, negative included', () => {
    // Prepare
    const hosts = hostsWith([{ free_disk_mb: 10240 }, { free_disk_mb: -512 }]);
    // Act
    const raw = rawWeights(DiskWeigher, hosts);
    // Assess
    expect(raw).toEqual([10240, -512]);
  });

  it.each([
    ['normalises by the largest free disk (minval 0)', [1024, 2048, 4096], [0.25, 0.5, 1]],
    ['gives every host 1.0 when all have the same free disk', [2048, 2048, 2048], [1, 1, 1]],
    ['clamps negative free disk to 0', [-1024, 4096], [0, 1]],
    ['gives 0 to every host when no disk is free', [0, 0], [0, 0]],
  ])('%s', (_case, free, expected) => {
    const hosts = hostsWith(free.map((f) => ({ free_disk_mb: f })));
    expect(finalWeights(DiskWeigher, hosts)).toEqual(expected);
  });

  it('a negative multiplier stacks onto the fullest host', () => {
    const hosts = hostsWith([{ free_disk_mb: 1024 }, { free_disk_mb: 4096 }]);
    const config = makeConfig({ filter_scheduler: { disk_weight_multiplier: -2 } });
    expect(finalWeights(DiskWeigher, hosts, undefined, config)).toEqual([-0.5, -2]);
  });
});
