/** Runs scripts/openstack/up and down, for the global set-up and for tests that restart a service. */
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';

const SCRIPTS = join(import.meta.dirname, '..', '..', 'scripts', 'openstack');

/** Where the cloud keeps its state (PLACID_OPENSTACK_DIR, as in scripts/openstack/lib/env.sh). */
export function stateDir(): string {
  return process.env.PLACID_OPENSTACK_DIR || join(homedir(), '.cache', 'placid-openstack');
}

export interface ScriptRun {
  status: number | null;
  /** stdout and stderr, interleaved as written. */
  output: string;
}

/** Runs `scripts/openstack/<name> <args>`; `echo` copies its output to this process's stderr. */
export function runScript(
  name: 'up' | 'down',
  args: string[] = [],
  options: { echo?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<ScriptRun> {
  return new Promise((resolve) => {
    const child = spawn(join(SCRIPTS, name), args, {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.echo) process.stderr.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => resolve({ status: null, output: `${output}${error.message}\n` }));
    child.on('close', (status) => resolve({ status, output }));
  });
}
