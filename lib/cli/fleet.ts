/** `placid fleet`: the fleet in the local store, by availability zone (text, or JSON for scripts). */
import { existsSync } from 'node:fs';
import { type Command, InvalidArgumentError } from '@commander-js/extra-typings';
import { isoTime } from './detect.js';
import { InputError } from './errors.js';
import { terminalSafe } from './format.js';
import { DATA_DIR_HELP } from './ingest.js';
import type { CliIO } from './io.js';

export interface FleetArgs {
  dataDir?: string;
  json?: boolean;
  window?: number;
  at?: Date;
  /** nova.conf / JSON: service_down_time (liveness) and the allocation ratios shown. */
  config?: string;
}

export const DEFAULT_WINDOW_MINUTES = 10;

const FLEET_EXIT_HELP = `
Exit status:
  0  the fleet was printed (an empty store included)
  2  usage error: bad options, no store at --data-dir
  3  internal error`;

export async function runFleetCommand(args: FleetArgs, io: CliIO): Promise<number> {
  // Loaded per command: the config reader brings zod, which `placid --help` has no use for.
  const [{ openLocalStore }, { defaultDataDir }, { readFleetView }, { formatFleet }, { readConfig }] =
    await Promise.all([
      import('../local/localStore.js'),
      import('../local/dynalite.js'),
      import('../fleet/fleetView.js'),
      import('./fleetText.js'),
      import('./inputs.js'),
    ]);
  const dataDir = args.dataDir ?? defaultDataDir();
  if (!existsSync(dataDir)) {
    throw new InputError(
      `no local fleet store at ${dataDir}: run \`placid ingest FILE\` first, or pass --data-dir`,
    );
  }
  const { config } = await readConfig(args.config);
  const at = args.at ?? new Date();
  const local = await openLocalStore({
    dataDir,
    store: { clock: { now: () => at.getTime() }, serviceDownTimeSeconds: config.DEFAULT.service_down_time },
  });
  try {
    const view = await readFleetView(local.store, {
      at,
      windowMinutes: args.window ?? DEFAULT_WINDOW_MINUTES,
      config,
    });
    io.stdout.write(
      args.json ? `${JSON.stringify(view, null, 2)}\n` : terminalSafe(formatFleet(view, dataDir)),
    );
  } finally {
    await local.close();
  }
  return 0;
}

/** Longest steal window: 30 days (samples older than the store keeps would only read as missing). */
const MAX_WINDOW_MINUTES = 30 * 24 * 60;

function positiveMinutes(value: string): number {
  const n = Number(value);
  if (!(Number.isFinite(n) && n > 0 && n <= MAX_WINDOW_MINUTES)) {
    throw new InvalidArgumentError(
      `must be a positive number of minutes, at most ${MAX_WINDOW_MINUTES} (30 days)`,
    );
  }
  return n;
}

export function addFleetCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('fleet')
    .description('show the stored fleet by availability zone: capacity used, VMs, CPU steal')
    .option('--data-dir <dir>', `the local store (default: ${DATA_DIR_HELP})`)
    .option('--json', 'print the fleet as JSON, for scripts')
    .option(
      '--window <minutes>',
      `steal is also averaged over this many minutes (default: ${DEFAULT_WINDOW_MINUTES})`,
      positiveMinutes,
    )
    .option(
      '--at <time>',
      'look at the fleet as of this ISO-8601 time (default: now), e.g. to replay old reports',
      isoTime,
    )
    .option(
      '--config <file>',
      "nova.conf-style INI, or .json: [DEFAULT] service_down_time (a host whose last report is older is down) and allocation ratios; Nova's defaults when omitted",
    )
    .addHelpText('after', FLEET_EXIT_HELP)
    .action(async (opts) => done(await runFleetCommand(opts, io)));
}
