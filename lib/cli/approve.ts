/** `placid approve PLAN_ID`: approves a plan made in approve mode; the next detector run sends it. */
import type { Command } from '@commander-js/extra-typings';
import { isoTime } from './detect.js';
import { terminalSafe } from './format.js';
import { DATA_DIR_HELP } from './ingest.js';
import type { CliIO } from './io.js';
import { storeExitHelp, withLocalStore } from './localDetector.js';

export async function runApprove(
  planId: string,
  args: { dataDir?: string; at?: Date },
  io: CliIO,
): Promise<number> {
  const { approvePlan } = await import('../detector/index.js');
  const at = args.at;
  const plan = await withLocalStore(
    args.dataDir,
    (store) => approvePlan(store, planId, at ?? new Date()),
    at,
  );
  const { moved, waves } = plan.summary;
  io.stdout.write(
    terminalSafe(
      `approved ${plan.plan_id}: ${moved} migration(s) in ${waves} wave(s), expires ${plan.plan_expires_at}; ` +
        'the next detector run (`placid detect`) sends wave 1\n',
    ),
  );
  return 0;
}

export function addApproveCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('approve')
    .description('approve a plan made in approve mode; the next detector run starts sending its migrations')
    .argument('<plan-id>', 'the plan id, as `placid plans` or `placid detect` print it')
    .option('--data-dir <dir>', `the local store (default: ${DATA_DIR_HELP})`)
    .option('--at <time>', 'approve as of this ISO-8601 time (as `placid detect --at`)', isoTime)
    .addHelpText(
      'after',
      storeExitHelp('an unknown or expired plan, a plan that is not waiting for approval, '),
    )
    .action(async (planId, opts) => done(await runApprove(planId, opts, io)));
}
