/**
 * `placid cleanup --config AGENT.yaml [--apply]`: what Placid left drained (a node it cordoned, a
 * Consul node it put in maintenance) according to the marks it leaves, found and undone on
 * premises from the agent's own config and credentials, without AWS.
 */
import type { Command } from '@commander-js/extra-typings';
import { parseDuration } from '../collect/durationText.js';
import { InputError } from './errors.js';
import { terminalSafe } from './format.js';
import type { CliIO } from './io.js';

export interface CleanupArgs {
  config: string;
  apply?: boolean;
  maxDrained?: string;
}

export async function runCleanupCommand(args: CleanupArgs, io: CliIO): Promise<number> {
  const maxDrainedMs = args.maxDrained === undefined ? undefined : parseDuration(args.maxDrained);
  if (maxDrainedMs === null) {
    throw new InputError(`--max-drained ${args.maxDrained}: not a duration (e.g. 0s, 30m, 2h)`);
  }
  const [{ loadAgentConfig }, { cleanupPass }] = await Promise.all([
    import('../agent/config.js'),
    import('../agent/cleanupRun.js'),
  ]);
  const config = await loadAgentConfig(args.config);
  const pass = await cleanupPass(config, { apply: Boolean(args.apply), now: Date.now(), maxDrainedMs });
  const undone = new Map(pass.undone.map((u) => [`${u.kind} ${u.where} ${u.node}`, u.outcome]));
  for (const l of pass.found) {
    const key = `${l.kind} ${l.where} ${l.node}`;
    const state = undone.get(key) ?? (l.stale ? 'stale: --apply undoes it' : 'recent: left alone');
    const where =
      l.kind === 'kubernetes'
        ? `node ${l.node}${l.where ? ` (${l.where})` : ''}`
        : `consul ${l.node} (${l.where})`;
    io.stdout.write(
      terminalSafe(`${where}  migration ${l.migrationId}  since ${l.since ?? '?'}  ${state}\n`),
    );
  }
  if (pass.found.length === 0) io.stdout.write('nothing Placid drained is left\n');
  return pass.undone.some((u) => u.outcome.startsWith('failed')) ? 1 : 0;
}

export function addCleanupCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('cleanup')
    .description("list (and with --apply undo) what Placid left drained, from the agent's config; no AWS")
    .requiredOption('--config <file>', 'the agent config (its credentials, clusters and Consul agents)')
    .option('--apply', 'undrain the stale ones (older than --max-drained)')
    .option(
      '--max-drained <duration>',
      "how long a drain may last before it is a leftover (default: the config's, 2h)",
    )
    .addHelpText(
      'after',
      '\nExit status:\n  0  listed (and undone, with --apply)\n  1  an undo failed (its line says why)\n  2  configuration error',
    )
    .action(async (opts) => done(await runCleanupCommand(opts, io)));
}
