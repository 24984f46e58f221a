import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempFiles } from '../runCli.js';

/** The `placid schedule --json` contract beyond the scenarios: keys and exit status 2. */

const CASE = join(import.meta.dirname, '01-default-filters-weighers');
const args = (more: Record<string, string>) => [
  'schedule',
  '--hosts',
  more.hosts ?? join(CASE, 'hosts.json'),
  '--request',
  more.request ?? join(CASE, 'request.json'),
  '--config',
  more.config ?? join(CASE, 'nova.conf'),
  '--json',
];

describe('placid schedule --json contract', () => {
  it('prints exactly selected, alternates, weighed and eliminated when placed (no error key)', async () => {
    // Act
    const run = await runCli(args({}));
    // Assess
    expect(Object.keys(JSON.parse(run.stdout))).toEqual(['selected', 'alternates', 'weighed', 'eliminated']);
  });

  it.each([
    [
      'an unknown filter',
      { config: '[filter_scheduler]\nenabled_filters = ComputeFiltre\n' },
      'ComputeFilter',
    ],
    [
      'an unknown weigher',
      { config: '[filter_scheduler]\nweight_classes = RAMWeigher, RamWeigher2\n' },
      'RamWeigher2',
    ],
    ['a host without a name', { hosts: [{ free_ram_mb: 1 }] }, 'host'],
    ['a request without a flavor', { request: { num_instances: 1 } }, 'flavor'],
  ])('exits 2 with a message for %s', async (_what, bad, mention) => {
    // Prepare
    const t = tempFiles();
    const paths = Object.fromEntries(
      Object.entries(bad).map(([k, v]) => [k, t.write(k === 'config' ? 'nova.conf' : `${k}.json`, v)]),
    );
    // Act
    const run = await runCli(args(paths));
    // Assess
    expect([run.status, run.stdout, run.stderr]).toEqual([2, '', expect.stringContaining(mention)]);
  });
});
