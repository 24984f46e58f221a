import { describe, expect, it } from 'vitest';
import { PASS_ALL } from '../../../lib/engine/filter.js';
import { MetricsFilter } from '../../../lib/engine/filters/MetricsFilter.js';
import { makeConfig } from '../../helpers/factories.js';
import { explanation, flags, host, passes, prepared, rebuildSpec, survivors } from './filterHarness.js';

const setting = (weight_setting: string[]) => makeConfig({ metrics: { weight_setting } });
const reporting = (...names: string[]) => host({ metrics: names.map((name) => ({ name, value: 1 })) });

describe('MetricsFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(MetricsFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['weight_setting is empty', []],
    ['every entry lacks "="', ['cpu.frequency']],
    ['every ratio is unparsable', ['cpu.frequency=fast', 'cpu.percent=']],
    ['every entry has an empty name', ['=1.0']],
  ])('passes every host when %s', (_case, weightSetting) => {
    expect(prepared(MetricsFilter, { config: setting(weightSetting) })).toBe(PASS_ALL);
  });

  it.each([
    [
      'passes a host reporting every named metric',
      ['cpu.frequency=1', 'cpu.percent=-1'],
      ['cpu.percent', 'cpu.frequency'],
      true,
    ],
    [
      'passes a host reporting more metrics than named',
      ['cpu.percent=2'],
      ['cpu.percent', 'cpu.user.time'],
      true,
    ],
    ['fails a host missing one named metric', ['cpu.frequency=1', 'cpu.percent=1'], ['cpu.frequency'], false],
    ['fails a host reporting no metrics', ['cpu.percent=1'], [], false],
    [
      'ignores an entry with an unparsable ratio',
      ['cpu.percent=1', 'cpu.frequency=high'],
      ['cpu.percent'],
      true,
    ],
    ['ignores an entry without "="', ['cpu.percent=1', 'cpu.frequency'], ['cpu.percent'], true],
    ['keeps spaces before "=" in the name, as Nova does', ['cpu.percent =1'], ['cpu.percent'], false],
    ['matches a name that keeps its trailing space', ['cpu.percent =1'], ['cpu.percent '], true],
    ['reads a ratio with spaces, as Python float() does', ['cpu.percent= 0.5 '], ['cpu.percent'], true],
    ['needs a repeated name only once', ['cpu.percent=1', 'cpu.percent=2'], ['cpu.percent'], true],
  ])('%s', (_case, weightSetting, names, expected) => {
    expect(passes(MetricsFilter, reporting(...names), { config: setting(weightSetting) })).toBe(expected);
  });

  it('still filters the second instance of a multi-create', async () => {
    const hosts = [reporting('cpu.percent'), host({ host: 'blind' })];
    const left = await survivors(MetricsFilter, hosts, { config: setting(['cpu.percent=1']), index: 1 });
    expect(left).toEqual(['h0']);
  });

  it('passes every host on a rebuild', async () => {
    const left = await survivors(MetricsFilter, [host()], {
      config: setting(['cpu.percent=1']),
      spec: rebuildSpec(),
    });
    expect(left).toEqual(['h0']);
  });

  it('explains with the missing and the reported metrics', () => {
    const config = setting(['cpu.frequency=1', 'cpu.percent=1', 'cpu.idle.time=1']);
    expect(explanation(MetricsFilter, reporting('cpu.percent', 'cpu.user.time'), { config })).toBe(
      "host does not report metric(s) 'cpu.frequency', 'cpu.idle.time' named in [metrics] weight_setting " +
        "(it reports 'cpu.percent', 'cpu.user.time')",
    );
  });
});
