/**
 * `placid collect --config FILE`: reads real metrics from Prometheus and the inventory from Nova,
 * turns them into report messages and sends them to the ingest queue (--queue) or the local
 * pipeline (the default, or --local), once or every --interval. Prints a summary per run; a
 * progress line goes to stderr, only on a terminal.
 */
import { type Command, InvalidArgumentError } from '@commander-js/extra-typings';
import { parseDuration } from '../collect/durationText.js';
import type { CollectPhase } from '../collect/run.js';
import { type Clock, systemClock } from '../model/clock.js';
import { InputError } from './errors.js';
import { terminalSafe } from './format.js';
import { DATA_DIR_HELP } from './ingest.js';
import type { CliIO } from './io.js';
import { checkQueueUrl } from './queueUrl.js';
import { stopOnSignals } from './stopSignals.js';

const COLLECT_EXIT_HELP = `
Exit status (with --interval: the worst run's):
  0  complete: every source answered and every message was accepted
  1  incomplete: reports were sent, but a query failed or answered partially, Placement failed,
     or some messages were refused (the summary lists what); VMs without series do not count
  2  usage or configuration error: bad options or config, a missing secret
  3  internal error
  4  failed: nothing was sent (the Nova inventory could not be read, or every message was refused)`;

export interface CollectArgs {
  config: string;
  once?: boolean;
  interval?: number;
  runs?: number;
  queue?: string;
  local?: boolean;
  dataDir?: string;
  json?: boolean;
}

export interface CollectControls {
  /** Stops an --interval loop after the current run (SIGINT/SIGTERM by default). */
  signal?: AbortSignal;
  clock?: Pick<Clock, 'now'>;
}

export async function runCollectCommand(args: CollectArgs, io: CliIO, controls: CollectControls = {}) {
  checkArgs(args);
  const collect = await import('../collect/index.js');
  const config = await collect.loadCollectConfig(args.config);
  const sources = await collect.connectSources(config);
  const sink = await makeSink(args, collect);
  const progress = progressLine(io);
  const signals = controls.signal || args.interval === undefined ? undefined : stopOnSignals();
  const stop = controls.signal ?? signals?.signal ?? new AbortController().signal;
  let worst: number = collect.COLLECT_EXIT.complete;
  try {
    for (let run = 1; ; run++) {
      const started = Date.now();
      const summary = await collect.collectAndSend(
        { config, ...sources, clock: controls.clock, progress: progress.update },
        sink,
      );
      progress.clear();
      io.stdout.write(
        args.json ? `${JSON.stringify(summary)}\n` : terminalSafe(collect.formatSummary(summary)),
      );
      worst = Math.max(worst, collect.exitStatusOf(summary));
      if (args.interval === undefined || run === args.runs || stop.aborted) break;
      await systemClock.sleep(started + args.interval - Date.now(), stop);
      if (stop.aborted) break;
    }
  } finally {
    progress.clear();
    signals?.release();
    await sink.close();
  }
  return worst;
}

function checkArgs(args: CollectArgs): void {
  if (args.once && args.interval !== undefined)
    throw new InputError('--once and --interval exclude each other');
  if (args.queue !== undefined && (args.local || args.dataDir !== undefined)) {
    throw new InputError('--queue excludes --local and --data-dir: send to a queue, or store locally');
  }
  if (args.runs !== undefined && args.interval === undefined) throw new InputError('--runs needs --interval');
  if (args.queue !== undefined) checkQueueUrl(args.queue);
}

async function makeSink(args: CollectArgs, collect: typeof import('../collect/index.js')) {
  if (args.queue !== undefined) return collect.queueSink(args.queue);
  const [{ defaultDataDir }, { localSink }] = await Promise.all([
    import('../local/dynalite.js'),
    import('../local/localSink.js'),
  ]);
  return localSink(args.dataDir ?? defaultDataDir());
}

/** `collect: queries 3/11` on stderr, rewritten in place; nothing when stderr is not a terminal. */
function progressLine(io: CliIO) {
  const tty = (io.stderr as { isTTY?: boolean }).isTTY === true && !process.env.CI;
  let shown = false;
  return {
    update: (phase: CollectPhase, done: number, total: number) => {
      if (!tty) return;
      io.stderr.write(`\r\x1b[2Kcollect: ${phase} ${done}/${total}`);
      shown = true;
    },
    clear: () => {
      if (shown) io.stderr.write('\r\x1b[2K');
      shown = false;
    },
  };
}

/** `60s`, `5m`, `1h30m`, or a bare number of seconds. */
function intervalOption(value: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : parseDuration(value);
  if (ms === undefined || ms < 1000) {
    throw new InvalidArgumentError('must be a duration of at least 1s, e.g. 60s or 5m');
  }
  return ms;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!(Number.isInteger(n) && n >= 1)) throw new InvalidArgumentError('must be a whole number >= 1');
  return n;
}

export function addCollectCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('collect')
    .description('collect steal and load from Prometheus and the inventory from Nova into report messages')
    .requiredOption('--config <file>', 'the collector config (YAML or JSON; see docs/collect.md)')
    .option('--once', 'collect once and exit (the default)')
    .option('--interval <duration>', 'collect every interval (e.g. 60s) until interrupted', intervalOption)
    .option('--runs <n>', 'with --interval: stop after n runs', positiveInt)
    .option('--queue <url>', 'send to this SQS queue (the ingest queue)')
    .option('--local', 'store through the local pipeline (the default)')
    .option('--data-dir <dir>', `the local store (default: ${DATA_DIR_HELP})`)
    .option('--json', 'print each run summary as one line of JSON')
    .addHelpText('after', COLLECT_EXIT_HELP)
    .action(async (opts) => done(await runCollectCommand(opts, io)));
}
