#!/usr/bin/env node
/**
 * Runs before `npm test`: the collector's tests scrape through a real Prometheus (Debian's
 * `prometheus` package). Installs it when it is missing and this user may (root, or password-less
 * sudo); otherwise says how, and the test that needs it fails with the same hint.
 */
import { execFileSync, spawnSync } from 'node:child_process';

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

if (!has('prometheus')) {
  const root = process.getuid?.() === 0;
  if (has('apt-get') && (root || spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0)) {
    console.error("installing Debian's prometheus package for the collector tests…");
    const run = (args) =>
      execFileSync(root ? args[0] : 'sudo', root ? args.slice(1) : ['-n', ...args], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'prometheus']);
  } else {
    console.error(
      "prometheus is not installed and cannot be installed from here: run `sudo apt-get install prometheus` (Debian), or the collector's real-Prometheus tests fail",
    );
  }
}
