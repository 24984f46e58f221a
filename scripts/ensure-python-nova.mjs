#!/usr/bin/env node
/**
 * Runs before `npm test` (and from .ci/run): the Nova plug-in tests and the Nova oracle run real
 * Nova 26 (Debian's `python3-nova`, with `python3-botocore` for the plug-in's SigV4 signing) under
 * Debian's /usr/bin/python3. Installs them when
 * an import fails and this user may (root, or password-less sudo); otherwise says how, and
 * the tests that need it fail with the same hint. Importable: `ensurePythonNova()` returns whether
 * Nova is importable afterwards.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export const PYTHON = '/usr/bin/python3';
// botocore: the plug-in's SigV4 signing is tested too (one small package).
const PACKAGES = ['python3-nova', 'python3-botocore'];

const novaImports = () =>
  spawnSync(PYTHON, ['-c', 'import nova.scheduler.filters, botocore'], { stdio: 'ignore' }).status === 0;
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

export function ensurePythonNova() {
  if (novaImports()) return true;
  const root = process.getuid?.() === 0;
  if (!(has('apt-get') && (root || spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0))) {
    console.error(
      `Nova is not importable by ${PYTHON} and cannot be installed from here: run ` +
        `\`sudo apt-get install --no-install-recommends ${PACKAGES.join(' ')}\` (Debian), or the Nova plug-in and oracle tests fail`,
    );
    return false;
  }
  console.error(
    `installing Debian's ${PACKAGES.join(' ')} for the Nova plug-in and oracle tests (about 3 minutes)…`,
  );
  const run = (args) =>
    execFileSync(root ? args[0] : 'sudo', root ? args.slice(1) : ['-n', ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...PACKAGES]);
  return novaImports();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) ensurePythonNova();
