import { describe, expect, it } from 'vitest';
import { MetricsWeigher } from '../../../lib/engine/weighers/MetricsWeigher.js';
import { RequestError } from '../../../lib/model/errors.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

const metric = (name: string, value: number) => ({ name, value });
const setting = (weight_setting: string[], more: { required?: boolean; weight_multiplier?: number } = {}) =>
  makeConfig({ metrics: { weight_setting, ...more } });
const optional = (weight_setting: string[], weight_multiplier?: number) =>
  setting(weight_setting, {
    required: false,
    ...(weight_multiplier === undefined ? {} : { weight_multiplier }),
  });

describe('MetricsWeigher', () => {
  it.each([
    ['an empty weight_setting', []],
    ['a weight_setting whose entries are all unparsable', ['cpu.frequency', 'cpu.percent=high']],
  ])('is skipped with %s', (_case, weightSetting) => {
    // Prepare
    const hosts = hostsWith([{ metrics: [metric('cpu.frequency', 1)] }]);
    // Act
    const raw = rawWeights(MetricsWeigher, hosts, makeSpec(), setting(weightSetting));
    // Assess
    expect(raw).toBe('ALL_ZERO');
  });

  it.each([
    ['sums value × ratio over the setting', ['cpu.frequency=1.0', 'cpu.percent=-2'], 1000 - 1],
    ['counts a repeated setting name every time', ['cpu.frequency=1', 'cpu.frequency=0.5'], 1500],
    ['ignores host metrics the setting does not name', ['cpu.percent=4'], 2],
  ])('%s', (_case, weightSetting, expected) => {
    const hosts = hostsWith([{ metrics: [metric('cpu.frequency', 1000), metric('cpu.percent', 0.5)] }]);
    expect(rawWeights(MetricsWeigher, hosts, makeSpec(), setting(weightSetting))).toEqual([expected]);
  });

  it('uses the last of two metrics reported under one name', () => {
    const hosts = hostsWith([{ metrics: [metric('cpu.percent', 0.1), metric('cpu.percent', 0.75)] }]);
    expect(rawWeights(MetricsWeigher, hosts, makeSpec(), setting(['cpu.percent=1']))).toEqual([0.75]);
  });

  it('raises a RequestError naming the host and metric when a required metric is missing', () => {
    const hosts = hostsWith([{ metrics: [metric('cpu.frequency', 1)] }, { metrics: [] }]);
    const config = setting(['cpu.frequency=1']);
    expect(() => finalWeights(MetricsWeigher, hosts, makeSpec(), config)).toThrow(RequestError);
    expect(() => finalWeights(MetricsWeigher, hosts, makeSpec(), config)).toThrow(
      /host h1 \(node h1\) does not report metric 'cpu\.frequency'/,
    );
  });

  it('gives weight_of_unavailable to a host missing a metric that would count', () => {
    const hosts = hostsWith([{ metrics: [metric('cpu.frequency', 1000)] }]);
    const config = optional(['cpu.frequency=1', 'cpu.percent=1']);
    expect(rawWeights(MetricsWeigher, hosts, makeSpec(), config)).toEqual([-10000]);
  });

  it.each([
    ['its ratio is 0', optional(['cpu.frequency=1', 'cpu.percent=0'])],
    ['the configured multiplier is 0', optional(['cpu.frequency=1', 'cpu.percent=1'], 0)],
  ])('skips a missing metric when %s', (_case, config) => {
    const hosts = hostsWith([{ metrics: [metric('cpu.frequency', 1000)] }]);
    expect(rawWeights(MetricsWeigher, hosts, makeSpec(), config)).toEqual([1000]);
  });

  it("skips a missing metric when the host's aggregate sets its multiplier to 0", () => {
    const hosts = hostsWith([
      {
        metrics: [metric('cpu.frequency', 1000)],
        aggregates: [{ name: 'a', metadata: { metrics_weight_multiplier: '0' } }],
      },
      { metrics: [metric('cpu.frequency', 1000)] },
    ]);
    const config = optional(['cpu.frequency=1', 'cpu.percent=1']);
    expect(rawWeights(MetricsWeigher, hosts, makeSpec(), config)).toEqual([1000, -10000]);
  });

  it('normalises min-max over all hosts', () => {
    const hosts = hostsWith([1000, 2000, 3000].map((v) => ({ metrics: [metric('cpu.frequency', v)] })));
    expect(finalWeights(MetricsWeigher, hosts, makeSpec(), setting(['cpu.frequency=1']))).toEqual([
      0, 0.5, 1,
    ]);
  });

  it('sinks a host missing a metric below every host that reports it', () => {
    const hosts = hostsWith([{ metrics: [] }, { metrics: [metric('cpu.frequency', 1)] }]);
    const config = optional(['cpu.frequency=1']);
    expect(finalWeights(MetricsWeigher, hosts, makeSpec(), config)).toEqual([0, 1]);
  });
});
