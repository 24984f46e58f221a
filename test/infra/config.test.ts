import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { configFromContext, parseConfig, SETTINGS } from '../../lib/infra/config.js';
import { PlacidStack } from '../../lib/infra/placidStack.js';
import { ConfigError } from '../../lib/model/errors.js';

describe('parseConfig', () => {
  it('applies every default when nothing is set', () => {
    const config = parseConfig({});
    const defaults = Object.fromEntries(Object.entries(SETTINGS).map(([name, s]) => [name, s.default]));
    expect(config).toEqual(defaults);
  });

  it('accepts numbers given as strings, as `cdk -c key=value` passes them', () => {
    expect(parseConfig({ ingestBatchSize: '50', ingestBatchingWindowSeconds: '5' })).toMatchObject({
      ingestBatchSize: 50,
      ingestBatchingWindowSeconds: 5,
    });
  });

  it.each([
    [
      'a retention CloudWatch does not offer',
      { logRetentionDays: 10 },
      'placid:logRetentionDays: must be one of',
    ],
    ['a receive count of zero', { maxReceiveCount: 0 }, 'placid:maxReceiveCount:'],
    ['a fractional batch size', { ingestBatchSize: 2.5 }, 'placid:ingestBatchSize:'],
    ['a word where a number belongs', { ingestTimeoutSeconds: 'thirty' }, 'placid:ingestTimeoutSeconds:'],
    ['a timeout above Lambda’s 900 s', { scheduleTimeoutSeconds: 901 }, 'placid:scheduleTimeoutSeconds:'],
    [
      'a dead-letter retention above 14 days',
      { deadLetterRetentionDays: 15 },
      'placid:deadLetterRetentionDays:',
    ],
    ['an alarm address that is not one', { alarmEmail: 'ops' }, 'placid:alarmEmail:'],
    ['a misspelt setting', { ingestBatchsize: 5 }, 'placid:ingestBatchsize: unknown setting'],
    [
      'a batch above 10 without a batching window',
      { ingestBatchSize: 100, ingestBatchingWindowSeconds: 0 },
      'placid:ingestBatchingWindowSeconds: must be at least 1 when placid:ingestBatchSize is above 10',
    ],
    [
      'a scheduler option that does not exist',
      { schedulerConfig: { filter_scheduler: { no_such_option: 1 } } },
      'placid:schedulerConfig:',
    ],
    ['scheduler options that are not JSON', { schedulerConfig: '{nope' }, 'placid:schedulerConfig:'],
  ])('rejects %s, naming the setting', (_name, raw, message) => {
    expect(() => parseConfig(raw)).toThrow(ConfigError);
    expect(() => parseConfig(raw)).toThrow(message);
  });

  it('names every bad setting at once', () => {
    expect(() => parseConfig({ maxReceiveCount: 0, ingestMemoryMb: 64 })).toThrow(
      /placid:maxReceiveCount:.*\|.*placid:ingestMemoryMb:/,
    );
  });

  it('passes valid scheduler options on as JSON text', () => {
    const options = { filter_scheduler: { host_subset_size: 2 } };
    expect(parseConfig({ schedulerConfig: options }).schedulerConfig).toBe(JSON.stringify(options));
  });
});

describe('the deploy guide', () => {
  it('documents every setting', () => {
    const guide = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
    const missing = Object.keys(SETTINGS).filter((name) => !guide.includes(`\`placid:${name}\``));
    expect(missing).toEqual([]);
  });
});

describe('configFromContext', () => {
  it('reads only the placid: keys of the context', () => {
    const app = new App({ context: { 'placid:maxReceiveCount': 3, '@aws-cdk/core:someFlag': true } });
    expect(configFromContext(app.node).maxReceiveCount).toBe(3);
  });

  it('fails the synth of the stack on a bad setting, naming it', () => {
    const app = new App({ context: { 'placid:reportMaxAgeMinutes': 0, 'aws:cdk:bundling-stacks': [] } });
    expect(() => new PlacidStack(app, 'Bad')).toThrow('placid:reportMaxAgeMinutes:');
  });
});
