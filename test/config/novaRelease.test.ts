/** Deciding as the operator's Nova release (issue 28, item 7). */
import { describe, expect, it } from 'vitest';
import { chooseRelease, novaMajor } from '../../lib/config/novaRelease.js';
import { resolveWeighers } from '../../lib/engine/registry.js';
import { releaseSchedulers } from '../../lib/schedule/releases.js';
import { makeConfig } from '../helpers/factories.js';

const names = (release: string | null) =>
  resolveWeighers(makeConfig({ placid: { nova_release: release } })).map((w) => w.name);

describe('all_weighers by Nova release', () => {
  it.each([
    ['26.2.2', [], ['HypervisorVersionWeigher', 'NumInstancesWeigher', 'ImagePropertiesWeigher']],
    ['27.1.0', [], ['HypervisorVersionWeigher', 'NumInstancesWeigher', 'ImagePropertiesWeigher']],
    ['28.0.0', ['HypervisorVersionWeigher', 'NumInstancesWeigher'], ['ImagePropertiesWeigher']],
    ['31.0.0', ['HypervisorVersionWeigher', 'NumInstancesWeigher', 'ImagePropertiesWeigher'], []],
  ])('Nova %s runs its own weighers only', (release, present, absent) => {
    // Act
    const weighers = names(release);
    // Assess
    for (const n of present) expect(weighers).toContain(n);
    for (const n of absent) expect(weighers).not.toContain(n);
    expect(weighers).toContain('RAMWeigher');
  });

  it('runs every weigher Placid has when no release is set', () => {
    expect(names(null)).toContain('HypervisorVersionWeigher');
  });

  it('still runs a newer weigher the operator lists by name', () => {
    const config = makeConfig({
      placid: { nova_release: '26.2.2' },
      filter_scheduler: { weight_classes: ['HypervisorVersionWeigher'] },
    });
    expect(resolveWeighers(config).map((w) => w.name)).toEqual(['HypervisorVersionWeigher']);
  });
});

describe('chooseRelease', () => {
  it('takes the request’s release, or Placid’s own set when none is named', () => {
    expect(chooseRelease('26.2.2', null)).toEqual({ release: '26.2.2' });
    expect(chooseRelease(undefined, null)).toEqual({ release: undefined });
  });

  it('lets the operator’s pin win, with a note when the request names another release', () => {
    expect(chooseRelease('26.2.2', '26.0.0')).toEqual({ release: '26.0.0' });
    expect(chooseRelease('28.0.0', '26.2.2')).toEqual({
      release: '26.2.2',
      note: expect.stringMatching(
        /decided as Nova 26\.2\.2 \(\[placid\] nova_release\), not the request's 28\.0\.0/,
      ),
    });
  });

  it('notes a release it cannot read, or one older than Placid follows, and says what it used', () => {
    expect(chooseRelease('zed', null)).toEqual({
      release: undefined,
      note: expect.stringMatching(/not a Nova version/),
    });
    expect(chooseRelease('25.1.0', null)).toEqual({
      release: '26',
      note: expect.stringMatching(/decided as 26/),
    });
  });

  it('reads the major version of Nova’s version strings', () => {
    expect(['26.2.2', '31.1.0.dev12', '28.0.0.0rc1', '30'].map(novaMajor)).toEqual([26, 31, 28, 30]);
    expect(novaMajor('')).toBeUndefined();
  });
});

describe('releaseSchedulers', () => {
  it('builds one scheduler per release line, keeping the operator’s other settings', () => {
    // Prepare
    const forRelease = releaseSchedulers(makeConfig({ filter_scheduler: { ram_weight_multiplier: 3 } }));
    // Act
    const a = forRelease('26.2.2');
    const b = forRelease('26.0.1');
    const c = forRelease('28.0.0');
    // Assess
    expect(a.scheduler).toBe(b.scheduler);
    expect(c.scheduler).not.toBe(a.scheduler);
    expect(a.scheduler.config.filter_scheduler.ram_weight_multiplier).toBe(3);
    expect(a.scheduler.config.placid.nova_release).toBe('26.2.2');
  });
});
