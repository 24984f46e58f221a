/**
 * Brings the OpenStack control plane up for the `openstack` test project (or reuses a running one:
 * `up` is idempotent), and afterwards stops only the services this run started. When the cloud
 * cannot start, nothing throws here: every test that needs it fails with the reason (`useCloud`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { runScript, stateDir } from './scripts.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The state dir of a cloud that answers, or why there is none. */
    openstack: { dir: string } | { error: string };
  }
}

export default async function setup(project: TestProject) {
  const dir = stateDir();
  const before = new Set(runningServices(dir));
  const up = await runScript('up', [], { echo: true });
  project.provide('openstack', up.status === 0 ? { dir } : { error: upError(up.status, up.output) });
  return async () => {
    const started = runningServices(dir).filter((name) => !before.has(name));
    if (started.length === 0) return;
    // Nothing ran before: stop everything in order (services, then RabbitMQ, then MariaDB).
    await runScript('down', before.size === 0 ? [] : started, { echo: true });
  };
}

function upError(status: number | null, output: string): string {
  const tail = output.trimEnd().split('\n').slice(-60).join('\n');
  return `scripts/openstack/up failed (exit ${status}); its last lines:\n${tail}`;
}

/** Services whose PID file names a live process. */
function runningServices(dir: string): string[] {
  const run = join(dir, 'run');
  if (!existsSync(run)) return [];
  return readdirSync(run)
    .filter((file) => file.endsWith('.pid') && !['rabbitmq-beam.pid', 'mariadbd.pid'].includes(file))
    .map((file) => file.slice(0, -'.pid'.length))
    .filter((name) => {
      try {
        process.kill(Number(readFileSync(join(run, `${name}.pid`), 'utf8')), 0);
        return true;
      } catch {
        return false;
      }
    });
}
