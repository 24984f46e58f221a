/**
 * `placid detect`: the detector against the local store, and locally what the cloud's plan starter
 * does with what it sends: each migration runs through the synthesized state machine (simulated
 * drivers over the VM's stored report, or the real ones with `--endpoints`), its outcome lands in
 * the store, and the detector runs again to send the next wave, until a run sends nothing. With
 * `--no-execute` the messages are only printed (and their records stay `queued`).
 */
import { type Command, InvalidArgumentError } from '@commander-js/extra-typings';
import { describeRound, type Round } from './detectRounds.js';
import { terminalSafe } from './format.js';
import { DATA_DIR_HELP } from './ingest.js';
import type { CliIO } from './io.js';
import { storeExitHelp, withLocalStore } from './localDetector.js';
import { ENDPOINTS_HELP, SETTINGS_HELP, TEMPLATE_HELP, type WorkflowFiles } from './workflowOptions.js';

export interface DetectArgs extends WorkflowFiles {
  dataDir?: string;
  config?: string;
  json?: boolean;
  /** False: print the messages sent, execute nothing. Default true. */
  execute?: boolean;
  /** The detector's (and simulated time's) now instead of the wall clock. */
  at?: Date;
  /** Read one sample window per node instead of the window digests. */
  fullRead?: boolean;
}

export async function runDetect(args: DetectArgs, io: CliIO): Promise<number> {
  const [{ detectRounds }, { readPlanConfig }] = await Promise.all([
    import('./detectRounds.js'),
    import('./planConfig.js'),
  ]);
  const plan = await readPlanConfig(args.config);
  const at = args.at;
  const clock = { now: () => at?.getTime() ?? Date.now() };
  const rounds = await withLocalStore(
    args.dataDir,
    (store, local) =>
      detectRounds({
        store,
        dynamo: local.dynamo,
        plan,
        clock,
        execute: args.execute,
        endpoints: args.endpoints,
        settings: args.settings,
        template: args.template,
        fullRead: args.fullRead,
      }),
    at,
    plan.config.DEFAULT.service_down_time,
  );
  if (args.json) {
    io.stdout.write(`${JSON.stringify(summarize(rounds), null, 2)}\n`);
    return 0;
  }
  const lines = [`mode ${plan.settings.mode}`];
  for (const round of rounds) lines.push(...describeRound(round));
  // Names come from reports and plans: nothing in them may drive the terminal.
  io.stdout.write(terminalSafe(`${lines.join('\n')}\n`));
  return 0;
}

/** The rounds as one run's result: the plan made, everything sent, executed, expired, completed. */
function summarize(rounds: readonly Round[]) {
  const results = rounds.map((r) => r.result);
  return {
    plan: results.find((r) => r.plan)?.plan ?? null,
    sent: results.flatMap((r) => r.sent),
    executed: rounds.flatMap((r) => r.executed),
    expired: results.flatMap((r) => r.expired),
    completed: results.flatMap((r) => r.completed ?? []),
    idle: results.at(-1)?.idle,
    rounds: rounds.length,
  };
}

/** Parses `--at`: an ISO-8601 time. */
export function isoTime(value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('must be an ISO-8601 time, e.g. 2026-12-01T12:00:00Z');
  }
  return date;
}

export function addDetectCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('detect')
    .description(
      'run the detector on the local store: advance plans (executing each wave it sends through the local workflow), then plan if none is in progress',
    )
    .option('--data-dir <dir>', `the local store (default: ${DATA_DIR_HELP})`)
    .option('--config <file>', 'nova.conf-style INI or .json with a [rebalance] section (mode, thresholds…)')
    .option('--at <time>', 'run as of this ISO-8601 time (for reports with fixed timestamps)', isoTime)
    .option('--no-execute', 'only print the migrations sent; run none of them (their records stay queued)')
    .option('--endpoints <file>', ENDPOINTS_HELP)
    .option('--settings <file>', SETTINGS_HELP)
    .option('--template <file>', TEMPLATE_HELP)
    .option('--json', 'print the run as JSON: plan, sent, executed, expired, completed, idle')
    .option(
      '--full-read',
      "read every node's sample window (one query per node) instead of the window digests ingest writes: the reference the digests are checked against",
    )
    .addHelpText(
      'after',
      storeExitHelp('an unreadable or bad --config, --endpoints, --settings or --template file, '),
    )
    .action(async (opts) => done(await runDetect(opts, io)));
}
