import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import type { CfnFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { describe, expect, it } from 'vitest';
import { DETECT_ENV } from '../../functions/detect/env.js';
import { PLAN_STARTER_ENV } from '../../functions/planStarter/env.js';
import { packageRoot } from '../../lib/config/packageRoot.js';
import { configFromContext, parseConfig, SETTINGS } from '../../lib/infra/config.js';
import { PlacidStack } from '../../lib/infra/placidStack.js';
import { PROJECT_ROOT } from '../../lib/infra/serviceFunction.js';
import { ConfigError } from '../../lib/model/errors.js';
import { WORKFLOW_SETTINGS_ENV } from '../../lib/workflow/settings.js';
import { runCli, tempFiles } from '../cli/runCli.js';

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
    [
      'a rebalance mode that does not exist',
      { rebalance: { mode: 'yolo' } },
      'placid:rebalance: [rebalance] mode = "yolo": expected one of recommend, approve, auto',
    ],
    [
      'a misspelt rebalance option',
      { rebalance: { steal_treshold_percent: 5 } },
      'placid:rebalance: [rebalance] unknown option steal_treshold_percent',
    ],
    [
      'a rebalance exit threshold above its entry threshold',
      { rebalance: { steal_threshold_percent: 5, steal_exit_threshold_percent: 8 } },
      'placid:rebalance: [rebalance] steal_exit_threshold_percent = 8: must not exceed',
    ],
    ['rebalance options that are not JSON', { rebalance: '{mode' }, 'placid:rebalance: not valid JSON'],
    [
      'rebalance options that are a list',
      { rebalance: '["auto"]' },
      'placid:rebalance: expected a JSON object',
    ],
    [
      'a workflow concurrency of zero',
      { workflowSettings: { max_concurrent_migrations: 0 } },
      'placid:workflowSettings: max_concurrent_migrations:',
    ],
    [
      'a workflow setting that does not exist',
      { workflowSettings: '{"deadline": 3}' },
      'placid:workflowSettings: (root): Unrecognized key: "deadline"',
    ],
    [
      'a workflow time zone that does not exist',
      { workflowSettings: { timezone: 'Mars/Olympus' } },
      'placid:workflowSettings: timezone: unknown IANA time zone Mars/Olympus',
    ],
    ['a detector timeout below 10 s', { detectTimeoutSeconds: 5 }, 'placid:detectTimeoutSeconds:'],
    [
      'a detector timeout as long as its lease',
      { detectTimeoutSeconds: 120 },
      'placid:detectTimeoutSeconds: Too big: expected number to be <=110',
    ],
    ['an alarm prefix with a space', { detectAlarmPrefix: 'steal alarm' }, 'placid:detectAlarmPrefix:'],
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

  it.each([
    ['an object, as cdk.json gives it', { mode: 'approve', plan_ttl_minutes: 20 }],
    ['JSON text, as -c gives it', '{"mode": "approve", "plan_ttl_minutes": 20}'],
  ])('passes valid [rebalance] options given as %s on as JSON text', (_how, rebalance) => {
    const text = parseConfig({ rebalance }).rebalance;
    expect(JSON.parse(text ?? 'null')).toEqual({ mode: 'approve', plan_ttl_minutes: 20 });
  });

  it.each([
    ['an object', { max_concurrent_migrations: 4, on_deadline: 'force-complete' }],
    ['JSON text', '{"max_concurrent_migrations": 4, "on_deadline": "force-complete"}'],
  ])('passes valid workflow settings given as %s on as they were given', (_how, workflowSettings) => {
    expect(parseConfig({ workflowSettings }).workflowSettings).toEqual({
      max_concurrent_migrations: 4,
      on_deadline: 'force-complete',
    });
  });
});

describe('placid:schedulerConfig filter and weigher names', () => {
  const HOSTS = [{ host: 'a', free_ram_mb: 4096 }];
  const REQUEST = { flavor: { name: 'm1.small', vcpus: 1, memory_mb: 512 } };

  it.each([
    [
      'an unknown filter',
      { filter_scheduler: { enabled_filters: 'ComputeFilter, ComputFilter' } },
      '[filter_scheduler] enabled_filters: unknown filter ComputFilter (did you mean ComputeFilter?)',
    ],
    [
      'a Nova filter left out of available_filters',
      {
        filter_scheduler: {
          available_filters: 'nova.scheduler.filters.compute_filter.ComputeFilter',
          enabled_filters: 'ComputeFilter, RamFilter',
        },
      },
      '[filter_scheduler] enabled_filters: unknown filter RamFilter (it exists but is not in available_filters)',
    ],
    [
      'an unknown weigher',
      { filter_scheduler: { weight_classes: 'RAMWeigher, RamWeigher2' } },
      '[filter_scheduler] weight_classes: unknown weigher RamWeigher2 (did you mean RAMWeigher?)',
    ],
  ])(
    'rejects %s at synth with the message the CLI gives for the same options',
    async (_what, options, message) => {
      // Prepare: the CLI reads the same groups from a JSON config file
      const t = tempFiles();
      const cli = await runCli([
        'schedule',
        ...['--hosts', t.write('hosts.json', HOSTS), '--request', t.write('request.json', REQUEST)],
        ...['--config', t.write('nova.json', options)],
      ]);
      // Act
      const synth = () => parseConfig({ schedulerConfig: options });
      // Assess
      expect([cli.status, cli.stderr]).toEqual([2, `placid: ${message}\n`]);
      expect(synth).toThrow(ConfigError);
      expect(synth).toThrow(`placid:schedulerConfig: ${message}`);
    },
  );

  it('accepts the filters and weighers the CLI accepts, and leaves plugin modules to the Lambda', () => {
    // Prepare
    const known = {
      filter_scheduler: { enabled_filters: 'ComputeFilter, HostStealFilter', weight_classes: 'RAMWeigher' },
    };
    // The module is imported in the Lambda, relative to its task root: not loadable at synth.
    const plugin = {
      filter_scheduler: { available_filters: './plugins/rack.js', enabled_filters: 'RackFilter' },
    };
    // Act / Assess
    expect(parseConfig({ schedulerConfig: known }).schedulerConfig).toBe(JSON.stringify(known));
    expect(parseConfig({ schedulerConfig: plugin }).schedulerConfig).toBe(JSON.stringify(plugin));
  });
});

describe('PROJECT_ROOT', () => {
  it('is the folder of placid’s package.json, as found from the bundled CLI in dist/ too', () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('placid');
    expect(packageRoot(new URL('../../dist/placid.cjs', import.meta.url).href)).toBe(PROJECT_ROOT);
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

  it.each([
    ['placid:reportMaxAgeMinutes', 0],
    ['placid:workflowSettings', { drain_timeout_seconds: 3600 }],
    ['placid:rebalance', { timezone: 'Asia/Tokio' }],
  ])('fails the synth of the stack on a bad %s, naming it', (key, value) => {
    const build = () =>
      new PlacidStack(new App({ context: { [key]: value, 'aws:cdk:bundling-stacks': [] } }), 'Bad');
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(`${key}:`);
  });
});

describe('the option documents of the context, in the stack', () => {
  // Built, not synthesised: the functions' environment is read from the construct tree.
  const rebalance = { mode: 'auto', max_migrations_per_host: 2 };
  const workflowSettings = { max_concurrent_migrations: 3, drain_timeout_seconds: 600 };
  const schedulerConfig = { filter_scheduler: { host_subset_size: 2 } };
  const stack = new PlacidStack(
    new App({
      context: {
        'placid:rebalance': rebalance,
        'placid:workflowSettings': JSON.stringify(workflowSettings),
        'placid:schedulerConfig': schedulerConfig,
        'aws:cdk:bundling-stacks': [],
      },
    }),
    'Configured',
  );
  const environment = (fn: IFunction): Record<string, unknown> =>
    Stack.of(fn).resolve((fn.node.defaultChild as CfnFunction).environment).variables;

  it('hands the detector its [rebalance] and scheduler options', () => {
    const env = environment(stack.detect.function);
    expect(JSON.parse(String(env[DETECT_ENV.rebalanceSettings]))).toEqual(rebalance);
    expect(JSON.parse(String(env[DETECT_ENV.schedulerConfig]))).toEqual(schedulerConfig);
  });

  it('hands the workflow steps their settings instead of the defaults', () => {
    const env = environment(stack.workflow.stepsFunction);
    expect(JSON.parse(String(env[WORKFLOW_SETTINGS_ENV]))).toEqual(workflowSettings);
  });

  it('sizes the plan starter and the agent steps’ timeout from the workflow settings', () => {
    const starter = environment(stack.workflow.starterFunction);
    const definition = JSON.stringify(
      Stack.of(stack).resolve(
        (stack.workflow.stateMachine.node.defaultChild as CfnStateMachine).definitionString,
      ),
    );
    expect(starter[PLAN_STARTER_ENV.maxConcurrent]).toBe('3');
    // The drain's own deadline plus two minutes, waiting for an agent included.
    expect(definition).toContain('\\"TimeoutSeconds\\":720');
  });
});
