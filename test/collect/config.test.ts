import { describe, expect, it } from 'vitest';
import { queryText } from '../../lib/collect/config.js';
import { formatDuration } from '../../lib/collect/duration.js';
import { parseDuration } from '../../lib/collect/durationText.js';
import { loadCollectConfig, parseCollectConfig } from '../../lib/collect/loadConfig.js';
import { QUERY_SPECS } from '../../lib/collect/queries.js';
import { ConfigError, ValidationError } from '../../lib/model/errors.js';

const MINIMAL = 'prometheus:\n  url: https://prometheus.example.com\n';

function invalid(text: string): ValidationError {
  try {
    parseCollectConfig(text, '/etc/placid/collect.yaml');
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('collect config', () => {
  it('fills every default from a config that names only the Prometheus URL', () => {
    const config = parseCollectConfig(MINIMAL, '/etc/placid/collect.yaml');
    expect(config.collect).toMatchObject({ window: 300_000, step: 60_000, rate_window: 300_000 });
    expect(config.openstack).toMatchObject({ secret: 'openstack', microversion: '2.87', placement: true });
    expect(config.prometheus.auth).toEqual({ type: 'none' });
    expect(config.queries.vm_steal).toBe(QUERY_SPECS.vm_steal.default);
  });

  it('reads JSON as well as YAML', () => {
    const config = parseCollectConfig('{"prometheus": {"url": "http://p:9090"}}', 'c.json');
    expect(config.prometheus.url).toBe('http://p:9090');
  });

  it('puts the rate window into the queries', () => {
    const config = parseCollectConfig(`${MINIMAL}collect:\n  rate_window: 2m\n`, 'c.yaml');
    expect(queryText(config, 'vm_steal')).toBe(
      'sum without (cpu, mode) (rate(node_cpu_seconds_total{mode="steal"}[2m]))',
    );
  });

  it('turns a query off with null', () => {
    const config = parseCollectConfig(`${MINIMAL}queries:\n  vm_wait: null\n`, 'c.yaml');
    expect(queryText(config, 'vm_wait')).toBeUndefined();
  });

  it('anchors relative file paths at the config file', () => {
    const config = parseCollectConfig(
      `${MINIMAL}  tls:\n    ca_file: ca.pem\ncredentials:\n  file: /abs/secrets.json\n`,
      '/etc/placid/collect.yaml',
    );
    expect([config.prometheus.tls.ca_file, config.credentials.file]).toEqual([
      '/etc/placid/ca.pem',
      '/abs/secrets.json',
    ]);
  });

  it.each([
    ['an unknown key (a typo)', `${MINIMAL}colect: {}\n`, ''],
    ['a missing URL', 'prometheus: {}\n', 'prometheus.url'],
    ['a bad duration', `${MINIMAL}collect:\n  step: 1 minute\n`, 'collect.step'],
    [
      'a window that is not whole steps',
      `${MINIMAL}collect:\n  window: 90s\n  step: 60s\n`,
      'collect.window',
    ],
    ['more steps than a report holds', `${MINIMAL}collect:\n  window: 1h\n  step: 1s\n`, 'collect.window'],
    [
      'an unknown mapping key',
      `${MINIMAL}mapping:\n  vm: [{label: instance, match: hostname}]\n`,
      'mapping.vm[0].match',
    ],
    [
      'a bad regex',
      `${MINIMAL}mapping:\n  host: [{label: fqdn, match: host, regex: '(('}]\n`,
      'mapping.host[0].regex',
    ],
    ['basic auth without a secret', `${MINIMAL}  auth: {type: basic}\n`, 'prometheus.auth.secret'],
  ])('rejects %s, naming the field', (_what, text, path) => {
    const error = invalid(text);
    expect(error.issues.map((i) => i.path)).toContain(path);
  });

  it('names an unknown key in the message', () => {
    expect(invalid(`${MINIMAL}colect: {}\n`).message).toContain('colect');
  });

  it('rejects text that is not a mapping', () => {
    expect(() => parseCollectConfig('- just\n- a list\n', 'c.yaml')).toThrow(ConfigError);
  });
});

describe('durations', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1d', 86_400_000],
  ])('reads %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([['5'], ['5 m'], ['m5'], ['-5s'], ['']])('does not read %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it.each([
    [300_000, '5m'],
    [90_000, '90s'],
    [3_600_000, '1h'],
    [1500, '1500ms'],
  ])('writes %d ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('examples/collect.yaml', () => {
  it('is a valid config', async () => {
    const config = await loadCollectConfig(new URL('../../examples/collect.yaml', import.meta.url).pathname);
    expect(config.mapping.host[0]).toEqual({ label: 'instance', match: 'host', regex: '^([^.:]+)' });
  });
});
