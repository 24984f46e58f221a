import { describe, expect, it } from 'vitest';
import { PASS_ALL } from '../../../lib/engine/filter.js';
import { IsolatedHostsFilter } from '../../../lib/engine/filters/IsolatedHostsFilter.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, prepared, rebuildSpec, survivors } from './filterHarness.js';

function isolation(images: string[], hosts: string[], restrict: boolean) {
  return makeConfig({
    filter_scheduler: {
      isolated_images: images,
      isolated_hosts: hosts,
      restrict_isolated_hosts_to_isolated_images: restrict,
    },
  });
}
const image = (id: string | null) => makeSpec({ image: { id, properties: {} } });

describe('IsolatedHostsFilter', () => {
  it('runs once per request and on rebuild', () => {
    expect(flags(IsolatedHostsFilter)).toEqual({ once: true, rebuild: true });
  });

  // NOVA.md's truth table: every combination of image isolated, host isolated and restrict.
  it.each([
    ['no isolated images, restrict: isolated host fails', [], 'iso', true, false],
    ['no isolated images, restrict: other host passes', [], 'plain', true, true],
    ['no isolated images, no restrict: isolated host passes', [], 'iso', false, true],
    ['no isolated images, no restrict: other host passes', [], 'plain', false, true],
    ['isolated image, restrict: isolated host passes', ['img-iso'], 'iso', true, true],
    ['isolated image, restrict: other host fails', ['img-iso'], 'plain', true, false],
    ['isolated image, no restrict: isolated host passes', ['img-iso'], 'iso', false, true],
    ['isolated image, no restrict: other host fails', ['img-iso'], 'plain', false, false],
    ['other image, restrict: isolated host fails', ['img-x'], 'iso', true, false],
    ['other image, restrict: other host passes', ['img-x'], 'plain', true, true],
    ['other image, no restrict: isolated host passes', ['img-x'], 'iso', false, true],
    ['other image, no restrict: other host passes', ['img-x'], 'plain', false, true],
  ])('%s', (_case, images, name, restrict, expected) => {
    const config = isolation(images, ['iso'], restrict);
    expect(passes(IsolatedHostsFilter, host({ host: name }), { spec: image('img-iso'), config })).toBe(
      expected,
    );
  });

  it.each([
    ['a request without an image', makeSpec()],
    ['an image without an id', image(null)],
  ])('treats %s as not isolated', (_case, spec) => {
    const config = isolation(['img-iso'], ['iso'], true);
    expect(passes(IsolatedHostsFilter, host({ host: 'iso' }), { spec, config })).toBe(false);
    expect(passes(IsolatedHostsFilter, host({ host: 'plain' }), { spec, config })).toBe(true);
  });

  it.each([
    ['nothing is configured', isolation([], [], true), image('img')],
    ['restrict is off and the image is not isolated', isolation(['img-iso'], ['iso'], false), image('img')],
    ['no host is isolated and the image is not isolated', isolation(['img-iso'], [], true), image('img')],
  ])('skips the per-host loop when %s', (_case, config, spec) => {
    expect(prepared(IsolatedHostsFilter, { spec, config })).toBe(PASS_ALL);
  });

  it('fails every host for an isolated image when no host is isolated', () => {
    const config = isolation(['img-iso'], [], true);
    expect(passes(IsolatedHostsFilter, host({ host: 'plain' }), { spec: image('img-iso'), config })).toBe(
      false,
    );
  });

  it('still filters on a rebuild', async () => {
    // Prepare
    const config = isolation(['img-iso'], ['iso'], true);
    const spec = rebuildSpec({ image: { id: 'img-iso', properties: {} } });
    // Act
    const left = await survivors(IsolatedHostsFilter, [host({ host: 'iso' }), host({ host: 'plain' })], {
      spec,
      config,
    });
    // Assess
    expect(left).toEqual(['iso']);
  });

  it('is skipped for the second instance of a multi-create', async () => {
    const config = isolation([], ['iso'], true);
    expect(await survivors(IsolatedHostsFilter, [host({ host: 'iso' })], { config, index: 1 })).toEqual([
      'iso',
    ]);
  });

  it.each([
    [
      'an isolated image on another host',
      'img-iso',
      'plain',
      'image img-iso is in isolated_images, so it may only run on isolated_hosts (iso, iso2); plain is not one of them',
    ],
    [
      'another image on an isolated host',
      'img-x',
      'iso',
      'iso is in isolated_hosts and restrict_isolated_hosts_to_isolated_images is true; image img-x is not in isolated_images',
    ],
  ])('explains %s', (_case, imageId, name, expected) => {
    const config = isolation(['img-iso'], ['iso', 'iso2'], true);
    expect(explanation(IsolatedHostsFilter, host({ host: name }), { spec: image(imageId), config })).toBe(
      expected,
    );
  });
});
