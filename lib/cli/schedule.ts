import type { Command } from '@commander-js/extra-typings';
import { isAdvisoryDoc } from './advisoryDoc.js';
import type { Decided } from './decide.js';
import { InputError } from './errors.js';
import { EXIT, EXIT_STATUS_HELP } from './exitCodes.js';
import { terminalSafe } from './format.js';
import type { CliIO } from './io.js';

export interface ScheduleArgs {
  hosts?: string;
  request: string;
  config?: string;
  json?: boolean;
  store?: boolean;
  dataDir?: string;
  claim?: boolean;
}

/** `placid schedule`: one explained placement of REQUEST.json over HOSTS.json or the stored fleet. */
export async function runSchedule(args: ScheduleArgs, io: CliIO): Promise<number> {
  // Loaded per command, so `placid --help` and the other commands start without the engine.
  const { readJsonFile } = await import('./inputs.js');
  const doc = await readJsonFile(args.request, 'request');
  if (isAdvisoryDoc(doc)) {
    const { runAdvise } = await import('./advise.js');
    return runAdvise(doc, args.request, args, io);
  }
  if (args.store) return runStoreSchedule(args, io);
  if (args.dataDir || args.claim) throw new InputError('--data-dir and --claim need --store');
  if (!args.hosts) throw new InputError('give the fleet: --hosts FILE, or --store for the stored one');
  const [{ decide }, { printDecision }] = await Promise.all([import('./decide.js'), import('./report.js')]);
  const decided = await decide({ hosts: args.hosts, request: args.request, config: args.config }, doc);
  await warnAboutRatios(decided, io);
  const status = printDecision(decided, args.json ?? false, io);
  return status;
}

async function runStoreSchedule(args: ScheduleArgs, io: CliIO): Promise<number> {
  if (args.hosts) throw new InputError('give either --hosts or --store, not both');
  const [{ decideFromStore }, { printDecision }] = await Promise.all([
    import('./storeDecision.js'),
    import('./report.js'),
  ]);
  const { decided, outcome, dataDir } = await decideFromStore(args);
  if (decided) await warnAboutRatios(decided, io);
  if (decided && decided.hosts.length === 0) {
    io.stderr.write(
      terminalSafe(
        `placid: the store in ${dataDir} has no hosts yet (placid ingest REPORTS.json fills it)\n`,
      ),
    );
  }
  if (outcome && (args.json || !decided)) {
    if (outcome.replayed && !args.json)
      io.stdout.write(terminalSafe(`Decided before, at ${outcome.decided_at}; nothing placed now.\n`));
    io.stdout.write(`${JSON.stringify(outcome.decision, null, 2)}\n`);
    return outcome.decision.error ? EXIT.noValidHost : EXIT.placed;
  }
  const status = printDecision(decided!, args.json ?? false, io);
  if (outcome)
    io.stdout.write(
      terminalSafe(`\nClaimed in the store; decision recorded as request ${outcome.request_id}.\n`),
    );
  return status;
}

/** `[DEFAULT] *_allocation_ratio` values the hosts' own ratios override, said once per option. */
async function warnAboutRatios(decided: Decided, io: CliIO): Promise<void> {
  // Unset options (Nova's default) cannot differ from a host's ratio: no need to scan 20k hosts.
  const d = decided.config.DEFAULT;
  if (d.cpu_allocation_ratio === null && d.ram_allocation_ratio === null && d.disk_allocation_ratio === null)
    return;
  const { ratioConfigWarnings } = await import('../engine/ratios.js');
  for (const warning of ratioConfigWarnings(decided.hosts, decided.config))
    io.stderr.write(terminalSafe(`placid: warning: ${warning}\n`));
}

export function addScheduleCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('schedule')
    .description('place one request on a fleet the way Nova FilterScheduler would, and explain why')
    .option('--hosts <file>', 'JSON array of host states (Nova HostState field names)')
    .requiredOption(
      '--request <file>',
      'JSON request spec (flavor, image, hints, availability zone, ...); with "advisory": true and ' +
        '"candidates", each candidate\'s verdict and weight as JSON, nothing claimed',
    )
    .option('--config <file>', "nova.conf-style INI, or .json; Nova's defaults when omitted")
    .option('--json', 'print the decision as JSON: selected, alternates, weighed, eliminated, error')
    .option('--store', 'use the fleet stored by `placid ingest` instead of --hosts')
    .option(
      '--data-dir <dir>',
      'with --store: the local store directory (default: $XDG_DATA_HOME/placid/dynamo)',
    )
    .option(
      '--claim',
      'with --store: claim the resources and record the decision, as the schedule stage does',
    )
    .addHelpText('after', EXIT_STATUS_HELP)
    .action(async (opts) => done(await runSchedule(opts, io)));
}
