import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { packageRoot } from '../../lib/config/packageRoot.js';
import { loadScenario, parseScenario } from '../../lib/sim/scenario.js';
import { prepareSimulation } from '../../lib/sim/setup.js';
import { tempFiles } from '../cli/runCli.js';

const examples = join(packageRoot(), 'examples', 'scenarios');

describe('scenario validation', () => {
  it.each([
    [
      'an unknown host',
      { noisy_neighbours: [{}, { host: 'cmp-az9-001' }] },
      'noisy_neighbours[1].host: no host cmp-az9-001',
    ],
    ['an unknown role', { noisy_neighbours: [{ role: 'gpu' }] }, 'noisy_neighbours[0].role: no role gpu'],
    ['a bad pattern', { noisy_neighbours: [{ pattern: 'wild' }] }, 'noisy_neighbours[0].pattern'],
    ['a negative count', { noisy_neighbours: { count: -1 } }, 'noisy_neighbours.count'],
    [
      'an unknown flavor',
      { roles: { web: { weight: 1, flavors: ['m1.medium', 'm9.huge'] } } },
      'roles.web.flavors[1]: unknown flavor m9.huge',
    ],
    ['an unknown time zone', { timezone: 'Asia/Tokio' }, 'timezone: unknown IANA time zone Asia/Tokio'],
    [
      'a bad local time',
      { load_curve: [{ at: '25:00', level: 1 }] },
      'load_curve[0].at: must be a local time HH:MM',
    ],
    ['zero vCPUs', { hosts: { vcpus: 0 } }, 'hosts.vcpus'],
    [
      'a failure rate over 1',
      { failures: { migration: 2 } },
      'failures.migration: must be a share between 0 and 1',
    ],
    ['an unknown field', { hostz: 3 }, 'hostz'],
    [
      'a bad [rebalance] option',
      { rebalance: { steal_threshold_percent: 150 } },
      '[rebalance] steal_threshold_percent = 150',
    ],
    ['a bad workflow setting', { workflow: { poll_interval_seconds: 0 } }, 'workflow: poll_interval_seconds'],
  ])('names the field of %s', (_what, doc, expected) => {
    expect(() => parseScenario(doc, 'scenario.yaml')).toThrow(expected);
  });

  it('names the file in every error', () => {
    expect(() => parseScenario({ vms: 0 }, 'mine.yaml')).toThrow(/^mine\.yaml: vms/);
  });

  it('says when the VMs do not fit on the hosts', () => {
    const scenario = parseScenario({ hosts: { count: 2, ram_gb: 16 }, vms: 100 }, 'tiny.yaml');
    expect(() => prepareSimulation(scenario)).toThrow('tiny.yaml: vms: 100 VMs do not fit on 2 hosts');
  });
});

describe('scenario defaults', () => {
  it('runs in auto mode with blackout windows and the load curve in the scenario time zone', () => {
    const s = parseScenario({ timezone: 'Europe/Paris' });
    expect([s.rebalance.mode, s.rebalance.timezone, s.workflow.timezone]).toEqual([
      'auto',
      'Europe/Paris',
      'Europe/Paris',
    ]);
  });

  it.each([
    [5, 6, 60],
    [1, 3, 80],
    [10, 11, 10],
  ])('relaxes staleness and coverage for reports every %i minutes', (interval, stale, coverage) => {
    const s = parseScenario({ report_interval_minutes: interval });
    expect([s.rebalance.stale_sample_minutes, s.rebalance.min_coverage_percent]).toEqual([stale, coverage]);
  });

  it('keeps [rebalance] values the scenario sets', () => {
    const s = parseScenario({ rebalance: { mode: 'recommend', stale_sample_minutes: 4 } });
    expect([s.rebalance.mode, s.rebalance.stale_sample_minutes]).toEqual(['recommend', 4]);
  });

  it('gives the workflow the [rebalance] concurrency limits and blackout windows unless set', () => {
    const s = parseScenario({
      rebalance: { max_concurrent_migrations: 3, blackout_windows: ['08:30-09:30'] },
    });
    expect([s.workflow.max_concurrent_migrations, s.workflow.blackout_windows.map((w) => w.text)]).toEqual([
      3,
      ['08:30-09:30'],
    ]);
  });
});

describe('scenario files', () => {
  it('reads the example default scenario as exactly the built-in defaults', async () => {
    const file = await loadScenario(join(examples, 'default.yaml'));
    expect({ ...file, source: '' }).toEqual({ ...parseScenario({}), source: '' });
  });

  it('reads the small example', async () => {
    const s = await loadScenario(join(examples, 'small.yaml'));
    expect([s.name, s.hostNames.length, s.vms, s.minutes]).toEqual(['small', 8, 80, 180]);
  });

  it('reads the large example: 1,000 hosts in 3 zones, 20,000 VMs placed, a day, 150 noisy neighbours', async () => {
    // Prepare
    const s = await loadScenario(join(examples, 'large.yaml'));
    // Act: lay the fleet out (placing every VM), without running it.
    const setup = prepareSimulation(s);
    // Assess
    const zones = new Set(setup.layout.hosts.map((h) => h.zone));
    const noisyHosts = new Set(setup.noisy.map((n) => setup.layout.vms[n.vm].host));
    expect([s.name, setup.layout.hosts.length, zones.size, setup.layout.vms.length, s.minutes]).toEqual([
      'large',
      1000,
      3,
      20_000,
      1440,
    ]);
    expect([setup.noisy.length, noisyHosts.size]).toEqual([150, 150]);
  });

  it('reads JSON by its extension', async () => {
    const path = tempFiles('placid-scenario-').write('s.json', {
      name: 'json',
      vms: 10,
      hosts: { count: 2 },
    });
    expect((await loadScenario(path)).name).toBe('json');
  });

  it('names the file of a YAML syntax error', async () => {
    const path = tempFiles('placid-scenario-').write('broken.yaml', 'hosts: [1, 2\n');
    await expect(loadScenario(path)).rejects.toThrow(/broken\.yaml: not valid YAML/);
  });

  it('reads the example in docs/commands.md and lays its fleet out', () => {
    const doc = readFileSync(join(packageRoot(), 'docs', 'commands.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## `placid simulate`'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    const setup = prepareSimulation(parseScenario(parseYaml(yaml ?? ''), 'docs/commands.md'));
    expect([setup.layout.hosts.length, setup.layout.vms.length, setup.noisy.length]).toEqual([8, 80, 1]);
  });
});
