import type { Command } from '@commander-js/extra-typings';
import { decide } from './decide.js';
import { EXIT_STATUS_HELP } from './exitCodes.js';
import type { CliIO } from './io.js';
import { printDecision } from './report.js';

export interface ScheduleArgs {
  hosts: string;
  request: string;
  config?: string;
  json?: boolean;
}

/** `placid schedule`: one explained placement of REQUEST.json over HOSTS.json. */
export async function runSchedule(args: ScheduleArgs, io: CliIO): Promise<number> {
  const decided = await decide({ hosts: args.hosts, request: args.request, config: args.config });
  return printDecision(decided, args.json ?? false, io);
}

export function addScheduleCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('schedule')
    .description('place one request on a fleet the way Nova FilterScheduler would, and explain why')
    .requiredOption('--hosts <file>', 'JSON array of host states (Nova HostState field names)')
    .requiredOption('--request <file>', 'JSON request spec (flavor, image, hints, availability zone, ...)')
    .option('--config <file>', "nova.conf-style INI, or .json; Nova's defaults when omitted")
    .option('--json', 'print the decision as JSON: selected, alternates, weighed, eliminated, error')
    .addHelpText('after', EXIT_STATUS_HELP)
    .action(async (opts) => done(await runSchedule(opts, io)));
}
