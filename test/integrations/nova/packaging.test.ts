/**
 * placid_nova as an operator installs it on Debian/Ubuntu (PEP 668: not into the system Python):
 * `pip install --target` a directory of its own, found through PYTHONPATH, with its options
 * listed by oslo-config-generator through the package's entry point.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON } from './pythonDriver.js';

const run = promisify(execFile);
const GENERATOR = '/usr/bin/oslo-config-generator';
let dir: string;
let target: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'placid-nova-pkg-'));
  target = join(dir, 'placid-nova');
  // A copy: an in-tree build would leave build/ and *.egg-info in the repository.
  await cp(new URL('../../../integrations/nova', import.meta.url).pathname, join(dir, 'src'), {
    recursive: true,
    filter: (p) => !p.includes('__pycache__'),
  });
  await run(
    PYTHON,
    [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--target',
      target,
      '--no-build-isolation',
      '--no-deps',
      '--no-index',
      join(dir, 'src'),
    ],
    { env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_ROOT_USER_ACTION: 'ignore' } },
  );
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('placid_nova installed with pip --target', () => {
  it('lists every [placid] option through oslo-config-generator --namespace placid_nova', async () => {
    // Prepare
    expect(existsSync(GENERATOR), `${GENERATOR} (python3-oslo.config) is missing`).toBe(true);
    // Act
    const { stdout } = await run(PYTHON, [GENERATOR, '--namespace', 'placid_nova'], {
      env: { ...process.env, PYTHONPATH: target },
    });
    // Assess
    expect(stdout).toContain('[placid]');
    for (const line of [
      '#endpoint = http://127.0.0.1:8780',
      '#timeout = 2.0',
      '#fail_open = true',
      '#region = <None>',
      '#weight_multiplier = 1.0',
      '#breaker_failures = 3',
      '#breaker_cooldown = 30.0',
      '#nova_release = <None>',
    ])
      expect(stdout).toContain(line);
  });

  it('loads PlacidFilter and PlacidWeigher by class path from that directory', async () => {
    // Act
    const { stdout } = await run(
      PYTHON,
      [
        '-c',
        [
          'from nova.scheduler import filters, weights',
          "print(filters.HostFilterHandler().get_matching_classes(['placid_nova.PlacidFilter'])[0].__module__)",
          "print(weights.HostWeightHandler().get_matching_classes(['placid_nova.PlacidWeigher'])[0].__module__)",
        ].join('\n'),
      ],
      { env: { ...process.env, PYTHONPATH: target }, cwd: dir },
    );
    // Assess
    expect(stdout.trim().split('\n')).toEqual(['placid_nova.filter', 'placid_nova.weigher']);
  });
});
