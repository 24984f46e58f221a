/** `placid plan`: plans the live migrations that relieve the suffering VMs of FLEET.json. */
import type { Command } from '@commander-js/extra-typings';
import { terminalSafe } from './format.js';
import type { CliIO } from './io.js';

export interface PlanArgs {
  fleet: string;
  config?: string;
  json?: boolean;
}

const PLAN_EXIT_HELP = `
Exit status:
  0  a plan was made (also when nothing needs moving)
  2  bad input: an unreadable or invalid fleet or config file (the file and field are named),
     an unknown option, filter or weigher, or a usage error
  3  internal error (a bug in placid; the stack trace is printed)`;

export async function runPlan(args: PlanArgs, io: CliIO): Promise<number> {
  // Loaded per command, so `placid --help` and the other commands start without the planner.
  const [{ parseFleetDocument }, { readPlanConfig }, { planRebalance }, { readJsonFile }, { formatPlan }] =
    await Promise.all([
      import('../rebalance/fleetInput.js'),
      import('./planConfig.js'),
      import('../rebalance/planner.js'),
      import('./inputs.js'),
      import('./planText.js'),
    ]);
  const fleet = parseFleetDocument(await readJsonFile(args.fleet, 'fleet'), args.fleet);
  const { config, settings, plugins } = await readPlanConfig(args.config);
  const plan = await planRebalance({ fleet, settings, config, plugins });
  io.stdout.write(args.json ? `${JSON.stringify(plan, null, 2)}\n` : terminalSafe(formatPlan(plan)));
  return 0;
}

export function addPlanCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('plan')
    .description('find the VMs suffering CPU steal and plan the live migrations that relieve them')
    .requiredOption(
      '--fleet <file>',
      'FLEET.json: {"now", "hypervisors": [host states with availability_zone and samples], "instances": [instance reports with samples]}',
    )
    .option(
      '--config <file>',
      'nova.conf-style INI or .json, with a [rebalance] section; defaults when omitted',
    )
    .option('--json', 'print the plan as JSON: plan_id, migrations, skipped, waves, summary')
    .addHelpText('after', PLAN_EXIT_HELP)
    .action(async (opts) => done(await runPlan(opts, io)));
}
