/** `placid plan`: plans the live migrations that relieve the suffering VMs of FLEET.json. */
import { dirname, resolve } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { loadConfig } from '../config/load.js';
import { defaultConfig, OPTIONS, type SchedulerConfig } from '../config/options.js';
import { mergeOptionTables } from '../config/table.js';
import { loadPluginModules, type Plugins } from '../engine/registry.js';
import { parseFleetDocument } from '../rebalance/fleetInput.js';
import { REBALANCE_OPTIONS } from '../rebalance/options.js';
import { planRebalance } from '../rebalance/planner.js';
import {
  defaultRebalanceSettings,
  parseRebalanceSettings,
  type RebalanceSettings,
} from '../rebalance/settings.js';
import { terminalSafe } from './format.js';
import { readJsonFile } from './inputs.js';
import type { CliIO } from './io.js';
import { formatPlan } from './planText.js';

export interface PlanArgs {
  fleet: string;
  config?: string;
  json?: boolean;
}

/** Nova's scheduler options plus `[rebalance]`, resolved by one loader. */
export const PLAN_OPTIONS = mergeOptionTables(OPTIONS, REBALANCE_OPTIONS);

const PLAN_EXIT_HELP = `
Exit status:
  0  a plan was made (also when nothing needs moving)
  2  bad input: an unreadable or invalid fleet or config file (the file and field are named),
     an unknown option, filter or weigher, or a usage error
  3  internal error (a bug in placid; the stack trace is printed)`;

export interface PlanConfig {
  config: SchedulerConfig;
  settings: RebalanceSettings;
  plugins: Plugins;
}

/** The scheduler config and `[rebalance]` settings of FILE (INI or JSON), or the defaults. */
export async function readPlanConfig(path: string | undefined): Promise<PlanConfig> {
  if (path === undefined)
    return { config: defaultConfig(), settings: defaultRebalanceSettings(), plugins: {} };
  const config = await loadConfig(path, PLAN_OPTIONS);
  const settings = parseRebalanceSettings(config.rebalance, path);
  const plugins = await loadPluginModules(config, dirname(resolve(path)));
  return { config, settings, plugins };
}

export async function runPlan(args: PlanArgs, io: CliIO): Promise<number> {
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
