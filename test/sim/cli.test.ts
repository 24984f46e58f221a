import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportFileName, simulationExitStatus } from '../../lib/cli/simulate.js';
import type { RunMetrics } from '../../lib/sim/result.js';
import { runCli, tempFiles } from '../cli/runCli.js';

const TINY = {
  name: 'tiny',
  seed: 5,
  start: '2026-12-01T08:00:00+09:00',
  duration_minutes: 15,
  zones: 2,
  hosts: { count: 4 },
  vms: 24,
  noisy_neighbours: { count: 1, start: '08:00' },
};

describe('placid simulate', () => {
  it('prints the summary and writes the HTML report where it says', async () => {
    const files = tempFiles('placid-simulate-');
    const scenario = files.write('tiny.json', TINY);
    const run = await runCli(['simulate', '--scenario', scenario, '--out', files.dir]);
    const path = /HTML report: (.+)$/m.exec(run.stdout)?.[1];
    expect([run.status, run.stdout.split('\n')[0], path]).toEqual([
      0,
      'Placid simulation: tiny',
      `${files.dir}/placid-simulation-tiny-5.html`,
    ]);
    expect(readFileSync(path!, 'utf8')).toMatch(/^<!doctype html>/i);
  }, 120_000);

  it('prints the whole result as JSON, with the seed given on the command line', async () => {
    const files = tempFiles('placid-simulate-');
    const scenario = files.write('tiny.json', { ...TINY, duration_minutes: 5 });
    const run = await runCli([
      'simulate',
      '--scenario',
      scenario,
      '--seed',
      '9',
      '--json',
      '--no-html',
      '--out',
      files.dir,
    ]);
    const result = JSON.parse(run.stdout);
    expect([run.status, result.scenario.seed, result.scenario.minutes]).toEqual([0, 9, 5]);
    expect(existsSync(`${files.dir}/placid-simulation-tiny-9.html`)).toBe(false);
  }, 120_000);

  it('exits 2 naming the file and the field of a bad scenario', async () => {
    const scenario = tempFiles('placid-simulate-').write(
      'bad.yaml',
      'noisy_neighbours:\n  - host: nowhere\n',
    );
    const run = await runCli(['simulate', '--scenario', scenario, '--no-html']);
    expect([run.status, run.stderr]).toEqual([
      2,
      expect.stringContaining('bad.yaml: noisy_neighbours[0].host: no host nowhere'),
    ]);
  });

  it('exits 2 for a seed that is not a whole number', async () => {
    expect((await runCli(['simulate', '--seed', '1.5'])).status).toBe(2);
  });
});

describe('the HTML report file name', () => {
  it('names the scenario and the seed, so scenarios run with one seed keep their own reports', () => {
    expect([
      reportFileName({ name: 'default', seed: 1 }),
      reportFileName({ name: 'small', seed: 1 }),
      reportFileName({ name: 'large', seed: 42 }),
    ]).toEqual([
      'placid-simulation-default-1.html',
      'placid-simulation-small-1.html',
      'placid-simulation-large-42.html',
    ]);
  });

  it('keeps a name with separators, spaces or dots inside the report directory', () => {
    expect([
      reportFileName({ name: '../etc/passwd', seed: 3 }),
      reportFileName({ name: 'Tokyo peak day', seed: 3 }),
      reportFileName({ name: '...', seed: 3 }),
    ]).toEqual([
      'placid-simulation-etc-passwd-3.html',
      'placid-simulation-Tokyo-peak-day-3.html',
      'placid-simulation-scenario-3.html',
    ]);
  });
});

describe('the exit status of a simulation', () => {
  const run = (violations: number): Pick<RunMetrics, 'violations'> => ({
    violations: Array.from({ length: violations }, () => ({
      at: '2026-12-01T00:00:00Z',
      kind: 'capacity' as const,
      detail: 'x',
    })),
  });
  it.each([
    [0, 0, 0],
    [1, 0, 1],
    [0, 2, 1],
  ])('with %i violations with Placid and %i without is %i', (placid, baseline, status) => {
    expect(simulationExitStatus({ runs: { placid: run(placid), baseline: run(baseline) } as never })).toBe(
      status,
    );
  });
});
