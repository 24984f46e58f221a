import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseIni } from '../../lib/config/ini.js';
import { loadConfig, resolveConfig } from '../../lib/config/load.js';
import { DEFAULT_ENABLED_FILTERS, defaultConfig } from '../../lib/config/options.js';
import { ConfigError } from '../../lib/model/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'placid-config-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function fromIni(text: string) {
  return resolveConfig(parseIni(text, 'nova.conf'), 'nova.conf');
}

describe('loadConfig', () => {
  it('reads nova.conf-style INI', async () => {
    // Prepare
    const path = file(
      'nova.conf',
      '[filter_scheduler]\nenabled_filters = ComputeFilter, AvailabilityZoneFilter\n',
    );
    // Act
    const config = await loadConfig(path);
    // Assess
    expect(config.filter_scheduler.enabled_filters).toEqual(['ComputeFilter', 'AvailabilityZoneFilter']);
  });

  it('reads JSON with native types', async () => {
    // Prepare
    const doc = {
      filter_scheduler: {
        host_subset_size: 3,
        enabled_filters: ['ComputeFilter'],
        shuffle_best_same_weighed_hosts: true,
      },
      metrics: { weight_setting: 'cpu.percent=-1.0' },
      placid: { seed: 7 },
    };
    const path = file('config.json', JSON.stringify(doc));
    // Act
    const config = await loadConfig(path);
    // Assess
    expect(config.filter_scheduler.host_subset_size).toBe(3);
    expect(config.filter_scheduler.enabled_filters).toEqual(['ComputeFilter']);
    expect(config.filter_scheduler.shuffle_best_same_weighed_hosts).toBe(true);
    expect(config.metrics.weight_setting).toEqual(['cpu.percent=-1.0']);
    expect(config.placid.seed).toBe(7);
  });

  it('reads JSON whose values are strings', async () => {
    // Prepare
    const path = file(
      'strings.json',
      JSON.stringify({ filter_scheduler: { host_subset_size: '2', track_instance_changes: 'no' } }),
    );
    // Act
    const config = await loadConfig(path);
    // Assess
    expect(config.filter_scheduler.host_subset_size).toBe(2);
    expect(config.filter_scheduler.track_instance_changes).toBe(false);
  });

  it.each([
    ['a missing file', 'missing.conf', undefined, 'cannot read config file'],
    ['invalid JSON', 'bad.json', '{"filter_scheduler": ', 'bad.json: not valid JSON'],
    ['a JSON array', 'array.json', '[]', 'array.json: expected an object of option groups'],
    [
      'a JSON group that is not an object',
      'group.json',
      '{"metrics": 3}',
      'group.json: [metrics] must be an object of options',
    ],
  ])('rejects %s naming the file', async (_name, name, text, message) => {
    // Prepare
    const path = text === undefined ? join(dir, name) : file(name, text);
    // Act
    const error = await loadConfig(path).catch((err: unknown) => err);
    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message);
  });
});

describe('resolveConfig', () => {
  it("fills Nova's defaults for everything unset", () => {
    // Act
    const config = fromIni('[filter_scheduler]\nhost_subset_size = 2\n');
    // Assess
    expect(config).toEqual({
      ...defaultConfig(),
      filter_scheduler: { ...defaultConfig().filter_scheduler, host_subset_size: 2 },
    });
    expect(config.filter_scheduler.enabled_filters).toEqual(DEFAULT_ENABLED_FILTERS);
  });

  it('gives every configuration its own default arrays', () => {
    // Prepare
    const first = fromIni('');
    // Act
    first.filter_scheduler.enabled_filters.push('JsonFilter');
    // Assess
    expect(fromIni('').filter_scheduler.enabled_filters).toEqual(DEFAULT_ENABLED_FILTERS);
  });

  it.each([
    ['true', true],
    ['False', false],
    ['YES', true],
    ['no', false],
    ['on', true],
    ['Off', false],
    ['1', true],
    ['0', false],
  ])('parses the boolean %s like oslo', (text, value) => {
    // Act
    const config = fromIni(`[filter_scheduler]\nshuffle_best_same_weighed_hosts = ${text}\n`);
    // Assess
    expect(config.filter_scheduler.shuffle_best_same_weighed_hosts).toBe(value);
  });

  it.each([
    ['a, b ,c', ['a', 'b', 'c']],
    ['', []],
    ['single', ['single']],
    ['a,\n  b', ['a', 'b']],
    ['a, b,', ['a', 'b']],
  ])('splits the list %j on commas and strips items', (text, value) => {
    // Act
    const config = fromIni(`[filter_scheduler]\nenabled_filters = ${text}\n`);
    // Assess
    expect(config.filter_scheduler.enabled_filters).toEqual(value);
  });

  it('collects every value of a repeated multistring option', () => {
    // Prepare
    const text =
      '[filter_scheduler]\navailable_filters = nova.scheduler.filters.all_filters\navailable_filters = ./my_filters.js\n';
    // Act
    const config = fromIni(text);
    // Assess
    expect(config.filter_scheduler.available_filters).toEqual([
      'nova.scheduler.filters.all_filters',
      './my_filters.js',
    ]);
  });

  it('takes a JSON array for a multistring option', () => {
    // Act
    const config = resolveConfig({ filter_scheduler: { available_filters: ['a.B', 'c.D'] } }, 'c.json');
    // Assess
    expect(config.filter_scheduler.available_filters).toEqual(['a.B', 'c.D']);
  });

  it('uses the last value of a repeated single-valued option, as oslo does', () => {
    // Act
    const config = fromIni('[filter_scheduler]\nhost_subset_size = 2\nhost_subset_size = 5\n');
    // Assess
    expect(config.filter_scheduler.host_subset_size).toBe(5);
  });

  it.each([
    [
      'an empty int that defaults to None',
      '[placid]\nseed =',
      (c: ReturnType<typeof fromIni>) => c.placid.seed,
      null,
    ],
    [
      'a float in [DEFAULT]',
      '[DEFAULT]\ncpu_allocation_ratio = 16.0',
      (c: ReturnType<typeof fromIni>) => c.DEFAULT.cpu_allocation_ratio,
      16,
    ],
    [
      'a negative float',
      '[filter_scheduler]\nio_ops_weight_multiplier = -2.5e0',
      (c: ReturnType<typeof fromIni>) => c.filter_scheduler.io_ops_weight_multiplier,
      -2.5,
    ],
    [
      'a string',
      '[DEFAULT]\ndefault_availability_zone = az1',
      (c: ReturnType<typeof fromIni>) => c.DEFAULT.default_availability_zone,
      'az1',
    ],
  ])('parses %s', (_name, text, read, value) => {
    // Act
    const config = fromIni(text);
    // Assess
    expect(read(config)).toBe(value);
  });

  it('keeps groups it does not know in extra', () => {
    // Prepare
    const text = '[api]\nauth_strategy = keystone\n[database]\nconnection = mysql+pymysql://nova@db/nova\n';
    // Act
    const config = fromIni(text);
    // Assess
    expect(config.extra).toEqual({
      api: { auth_strategy: 'keystone' },
      database: { connection: 'mysql+pymysql://nova@db/nova' },
    });
  });

  it.each([
    [
      'Nova options outside the scheduler in [DEFAULT]',
      '[DEFAULT]\ntransport_url = rabbit://h\n',
      'DEFAULT',
      'transport_url',
    ],
    ['scheduler options Placid does not model', '[scheduler]\nworkers = 4\n', 'scheduler', 'workers'],
  ])('accepts %s and keeps them in extra', (_name, text, group, option) => {
    // Act
    const config = fromIni(text);
    // Assess
    expect(config.extra[group]).toHaveProperty(option);
  });

  it.each([
    [
      '[filter_scheduler]\nenabled_filter = ComputeFilter',
      'nova.conf:2: [filter_scheduler] unknown option enabled_filter (did you mean enabled_filters?)',
    ],
    [
      '[DEFAULT]\ncpu_allocaton_ratio = 4',
      'nova.conf:2: [DEFAULT] unknown option cpu_allocaton_ratio (did you mean cpu_allocation_ratio?)',
    ],
    [
      '[metrics]\nsomething_else = 1',
      'nova.conf:2: [metrics] unknown option something_else (not a known option of this group)',
    ],
    [
      '[filter_schedular]\nenabled_filters = ComputeFilter',
      'nova.conf: unknown group [filter_schedular] (did you mean [filter_scheduler]?)',
    ],
  ])('rejects an unknown option or mistyped group with a suggestion: %j', (text, message) => {
    // Act
    const act = () => fromIni(text);
    // Assess
    expect(act).toThrow(ConfigError);
    expect(act).toThrow(message);
  });

  it.each([
    [
      '[filter_scheduler]\nhost_subset_size = two',
      'nova.conf:2: [filter_scheduler] host_subset_size = "two": expected an integer >= 1',
    ],
    ['[filter_scheduler]\nhost_subset_size = 1.5', 'expected an integer >= 1'],
    ['[filter_scheduler]\nhost_subset_size = 0', 'host_subset_size = "0": expected an integer >= 1'],
    ['[filter_scheduler]\nhost_subset_size =', 'host_subset_size = "": expected an integer >= 1'],
    [
      '[filter_scheduler]\nshuffle_best_same_weighed_hosts = maybe',
      '= "maybe": expected a boolean (true/false, yes/no, on/off, 1/0)',
    ],
    ['[filter_scheduler]\nram_weight_multiplier = 1,5', 'ram_weight_multiplier = "1,5": expected a number'],
    ['[filter_scheduler]\nram_weight_multiplier = inf', 'expected a number'],
    ['[filter_scheduler]\nsoft_affinity_weight_multiplier = -1', 'expected a number >= 0'],
  ])('rejects a bad INI value naming file, line, option, value and expectation: %j', (text, message) => {
    // Act
    const act = () => fromIni(text);
    // Assess
    expect(act).toThrow(ConfigError);
    expect(act).toThrow(message);
  });

  it.each([
    [
      { filter_scheduler: { host_subset_size: 2.5 } },
      'c.json: [filter_scheduler] host_subset_size = 2.5: expected an integer >= 1',
    ],
    [{ filter_scheduler: { enabled_filters: 3 } }, 'enabled_filters = 3: expected a comma-separated list'],
    [{ filter_scheduler: { enabled_filters: ['ComputeFilter', 1] } }, 'expected a comma-separated list'],
    [{ filter_scheduler: { shuffle_best_same_weighed_hosts: 1 } }, 'expected a boolean'],
    [{ filter_scheduler: { host_subset_size: null } }, 'host_subset_size = null: expected an integer >= 1'],
  ])('rejects a bad JSON value: %j', (doc, message) => {
    // Act
    const act = () => resolveConfig(doc, 'c.json');
    // Assess
    expect(act).toThrow(ConfigError);
    expect(act).toThrow(message);
  });
});
