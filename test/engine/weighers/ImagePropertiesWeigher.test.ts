import { describe, expect, it } from 'vitest';
import { ImagePropertiesWeigher } from '../../../lib/engine/weighers/ImagePropertiesWeigher.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

const ubuntuX86 = makeSpec({ image: { properties: { os_distro: 'ubuntu', hw_architecture: 'x86_64' } } });
const on = (image_props_weight_setting: string[] = [], image_props_weight_multiplier = 1) =>
  makeConfig({ filter_scheduler: { image_props_weight_multiplier, image_props_weight_setting } });

/** One host whose instances ran images with these properties. */
const hostRunning = (...images: (Record<string, string> | undefined)[]) =>
  hostsWith([{ instances: Object.fromEntries(images.map((p, i) => [`i${i}`, { image_properties: p }])) }]);

// i0 shares both requested properties, i1 shares os_distro only, i2 shares neither, i3 has no image data.
const mixed = () =>
  hostRunning(
    { os_distro: 'ubuntu', hw_architecture: 'x86_64' },
    { os_distro: 'ubuntu', hw_architecture: 'aarch64' },
    { os_distro: 'windows' },
    undefined,
  );

describe('ImagePropertiesWeigher', () => {
  it.each([
    ['the global multiplier is 0 (the default)', ubuntuX86, makeConfig()],
    ['the request has no image', makeSpec(), on()],
    ['the image has no properties', makeSpec({ image: { properties: {} } }), on()],
    ['the setting lists none of the requested properties', ubuntuX86, on(['hw_disk_bus=5'])],
    ['every requested property has ratio 0', ubuntuX86, on(['os_distro=0', 'hw_architecture=0'])],
  ])('is skipped when %s', (_case, spec, config) => {
    // Act
    const raw = rawWeights(ImagePropertiesWeigher, mixed(), spec, config);
    // Assess
    expect(raw).toBe('ALL_ZERO');
  });

  it('stays off when the global multiplier is 0 even if an aggregate sets one', () => {
    const hosts = hostsWith([
      { aggregates: [{ name: 'a', metadata: { image_props_weight_multiplier: '5' } }] },
      { instances: { i0: { image_properties: { os_distro: 'ubuntu' } } } },
    ]);
    expect(rawWeights(ImagePropertiesWeigher, hosts, ubuntuX86, makeConfig())).toBe('ALL_ZERO');
  });

  it.each([
    ['counts each instance sharing each requested property once, by default', [], 2 + 1],
    [
      'multiplies each count by its ratio from the setting',
      ['os_distro=2', 'hw_architecture=0.5'],
      2 * 2 + 0.5,
    ],
    ['counts unlisted properties 0 once the setting is not empty', ['os_distro=2'], 2 * 2],
    ['lets a later setting entry for a name win', ['os_distro=1', 'os_distro=3'], 3 * 2],
    ['weighs evenly when every setting entry is unparsable', ['os_distro', 'hw_architecture=x'], 3],
  ])('%s', (_case, weightSetting, expected) => {
    expect(rawWeights(ImagePropertiesWeigher, mixed(), ubuntuX86, on(weightSetting))).toEqual([expected]);
  });

  it('compares values exactly, as strings', () => {
    const host = hostRunning({ os_distro: 'Ubuntu' });
    expect(rawWeights(ImagePropertiesWeigher, host, ubuntuX86, on())).toEqual([0]);
  });

  it('ignores requested properties Nova does not know, even when instances share them', () => {
    const spec = makeSpec({ image: { properties: { os_distro: 'ubuntu', foo: 'bar' } } });
    const host = hostRunning({ os_distro: 'ubuntu', foo: 'bar' }, { foo: 'bar' });
    expect(rawWeights(ImagePropertiesWeigher, host, spec, on())).toEqual([1]);
  });

  it('packs like images with a positive multiplier (min-max)', () => {
    const hosts = hostsWith(
      [0, 1, 2].map((n) => ({
        instances: Object.fromEntries(
          Array.from({ length: n }, (_, i) => [`i${i}`, { image_properties: { os_distro: 'ubuntu' } }]),
        ),
      })),
    );
    expect(finalWeights(ImagePropertiesWeigher, hosts, ubuntuX86, on([], 2))).toEqual([0, 1, 2]);
  });
});
