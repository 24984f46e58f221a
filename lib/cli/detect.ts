/**
 * `placid detect`: one detector run (reconcile) against the local store. Locally no plan starter
 * consumes the plan queue, so the messages a run sends are printed instead of executed.
 */
import type { Command } from '@commander-js/extra-typings';
import { terminalSafe } from './format.js';
import { DATA_DIR_HELP } from './ingest.js';
import type { CliIO } from './io.js';
import { DETECTOR_EXIT_HELP, withLocalStore } from './localDetector.js';

export interface DetectArgs {
  dataDir?: string;
  config?: string;
  json?: boolean;
}

export async function runDetect(args: DetectArgs, io: CliIO): Promise<number> {
  const [{ reconcile }, { LocalSqsQueue }, { readPlanConfig }] = await Promise.all([
    import('../detector/index.js'),
    import('../local/sqsQueue.js'),
    import('./planConfig.js'),
  ]);
  const { config, settings, plugins } = await readPlanConfig(args.config);
  const planQueue = new LocalSqsQueue({ name: 'placid-plans' });
  const result = await withLocalStore(args.dataDir, (store) =>
    reconcile({ store, planQueue, settings, config, plugins, now: () => new Date() }),
  );
  if (args.json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const lines = [`mode ${settings.mode}`];
  if (result.plan) {
    const p = result.plan;
    lines.push(
      `plan ${p.plan_id} (${p.status}): ${p.summary.moved} migration(s) in ${p.summary.waves} wave(s), expires ${p.expires_at}`,
    );
    if (p.status === 'pending_approval') lines.push(`  approve with: placid approve ${p.plan_id}`);
  }
  if (result.idle) lines.push(`no new plan: ${result.idle}`);
  for (const m of result.sent)
    lines.push(`sent ${m.migration_id}: ${m.instance_uuid} ${m.source_host} -> ${m.dest_host}`);
  for (const id of result.expired) lines.push(`expired ${id}`);
  for (const id of result.completed ?? []) lines.push(`completed ${id}`);
  io.stdout.write(terminalSafe(`${lines.join('\n')}\n`));
  return 0;
}

export function addDetectCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('detect')
    .description('run the detector once on the local store: advance plans, then plan if none is in progress')
    .option('--data-dir <dir>', `the local store (default: ${DATA_DIR_HELP})`)
    .option('--config <file>', 'nova.conf-style INI or .json with a [rebalance] section (mode, thresholds…)')
    .option('--json', 'print the run as JSON: plan, sent, expired, idle')
    .addHelpText('after', DETECTOR_EXIT_HELP)
    .action(async (opts) => done(await runDetect(opts, io)));
}
