/** `placid plans`: the stored plans, newest first, with their status and their migrations' states. */
import type { Command } from '@commander-js/extra-typings';
import type { StoredPlanStatus } from '../model/plan.js';
import { plural, terminalSafe } from './format.js';
import { DATA_DIR_HELP } from './ingest.js';
import type { CliIO } from './io.js';
import { storeExitHelp, withLocalStore } from './localDetector.js';

const STATUSES: StoredPlanStatus[] = ['pending_approval', 'approved', 'recommended', 'completed', 'expired'];

export interface PlanListing {
  plan_id: string;
  status: StoredPlanStatus;
  mode: string;
  created_at: string;
  expires_at: string;
  /** What it would do: moves, waves, GiB to copy, suffering VMs it was made for. */
  moves: number;
  waves: number;
  gib: number;
  suffering_vms: number;
  migrations: Record<string, number>;
}

export async function runPlans(args: { dataDir?: string; json?: boolean }, io: CliIO): Promise<number> {
  const listing = await withLocalStore(args.dataDir, async (store) => {
    const plans = (await Promise.all(STATUSES.map((s) => store.plans.withStatus(s)))).flat();
    plans.sort((a, b) => b.created_at.localeCompare(a.created_at));
    return Promise.all(
      plans.map(async (p): Promise<PlanListing> => {
        const migrations: Record<string, number> = {};
        for (const r of await store.migrations.ofPlan(p.plan_id))
          migrations[r.status] = (migrations[r.status] ?? 0) + 1;
        return {
          plan_id: p.plan_id,
          status: p.status,
          mode: p.mode,
          created_at: p.created_at,
          expires_at: p.plan_expires_at,
          moves: p.summary.moved,
          waves: p.summary.waves,
          gib: Math.round((p.summary.bytes / 2 ** 30) * 10) / 10,
          suffering_vms: p.summary.suffering_vms,
          migrations,
        };
      }),
    );
  });
  if (args.json) {
    io.stdout.write(`${JSON.stringify(listing, null, 2)}\n`);
    return 0;
  }
  if (listing.length === 0) {
    io.stdout.write('no plans stored\n');
    return 0;
  }
  for (const p of listing) {
    const states =
      Object.entries(p.migrations)
        .map(([s, n]) => `${n} ${s}`)
        .join(', ') || 'none sent';
    const what = `${plural(p.moves, 'move')} in ${plural(p.waves, 'wave')}, ${p.gib} GiB, for ${plural(p.suffering_vms, 'suffering VM')}`;
    io.stdout.write(
      terminalSafe(
        `${p.plan_id}  ${p.status.padEnd(16)} created ${p.created_at}  expires ${p.expires_at}  ${what}; migrations: ${states}\n`,
      ),
    );
  }
  io.stdout.write('`placid plans show PLAN_ID` shows every move of a plan and what approving it does\n');
  return 0;
}

export function addPlansCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  const plans = program
    .command('plans')
    .description('list the stored plans with their status and the state of their migrations')
    .option('--data-dir <dir>', `the local store (default: ${DATA_DIR_HELP})`)
    .option('--json', 'print the plans as JSON')
    .addHelpText('after', storeExitHelp(''))
    .action(async (opts) => done(await runPlans(opts, io)));
  plans
    .command('show')
    .description('one plan in full: every move with its reason, the summary, and what approving it does next')
    .argument('<plan-id>', 'the plan id, as `placid plans` prints it')
    .option('--data-dir <dir>', `the local store (default: ${DATA_DIR_HELP})`)
    .option('--json', 'print the plan, its migrations and the next step as JSON')
    .addHelpText('after', storeExitHelp('an unknown plan, '))
    .action(async (planId, opts) => {
      const { runPlanShow } = await import('./planShow.js');
      // `plans` takes the same options, so Commander hands them to it: read both.
      done(await runPlanShow(planId, { ...plans.opts(), ...opts }, io));
    });
}
