/**
 * `placid ingest FILE|-`: sends report messages to the ingest stage and says what became of each.
 * By default the stage runs here, on the local store under --data-dir (so `placid fleet` shows the
 * result); with --queue the messages go to a real SQS queue instead.
 */
import type { Command } from '@commander-js/extra-typings';
import { InputError } from './errors.js';
import { plural, terminalSafe } from './format.js';
import type { InputMessage } from './ingestInput.js';
import type { CliIO } from './io.js';
import { checkQueueUrl } from './queueUrl.js';

/** What defaultDataDir() resolves to, in words (computing it here would load dynalite for every command). */
export const DATA_DIR_HELP = '$XDG_DATA_HOME/placid/dynamo, else ~/.local/share/placid/dynamo';

export const INGEST_EXIT = { stored: 0, rejected: 1, usage: 2 } as const;

const INGEST_EXIT_HELP = `
Input: one report message (JSON), a JSON array of messages, or JSON Lines (one message per line).

Exit status:
  0  every message was stored (reports no newer than the stored state count as stored)
  1  at least one message was rejected (each is printed with its reason)
  2  usage error: unreadable or empty input, bad options, a --data-dir that cannot hold a store
  3  internal error`;

export interface IngestArgs {
  dataDir?: string;
  queue?: string;
  asOfNow?: boolean;
}

export async function runIngestCommand(
  file: string,
  args: IngestArgs,
  io: CliIO,
  stdin?: AsyncIterable<string | Buffer>,
): Promise<number> {
  if (args.dataDir !== undefined && args.queue !== undefined) {
    throw new InputError('--data-dir and --queue exclude each other: store locally, or send to a queue');
  }
  if (args.queue !== undefined) checkQueueUrl(args.queue);
  const { readReportInput } = await import('./ingestInput.js');
  const input = await readReportInput(file, stdin);
  const source = input.source;
  const messages = args.asOfNow
    ? (await import('./asOfNow.js')).rebaseToNow(input.messages, Date.now())
    : input.messages;
  return args.queue !== undefined
    ? ingestToQueue(args.queue, messages, source, io)
    : ingestLocally(args.dataDir, messages, source, io);
}

async function ingestLocally(dir: string | undefined, messages: InputMessage[], source: string, io: CliIO) {
  // Loaded only here, so the other commands start without dynalite and the DynamoDB client.
  const [{ LocalPipeline }, { defaultDataDir }] = await Promise.all([
    import('../local/pipeline.js'),
    import('../local/dynalite.js'),
  ]);
  const dataDir = dir ?? defaultDataDir();
  const pipeline = await LocalPipeline.start({ dataDir });
  let report: Awaited<ReturnType<typeof pipeline.ingest>>;
  try {
    report = await pipeline.ingest(messages.map((m) => m.body));
  } finally {
    await pipeline.close();
  }
  const rejected = report.rejected.map((r) => ({ where: messages[r.index].where, reason: r.reason }));
  io.stdout.write(
    `${plural(messages.length, 'message')} from ${source} into the local store at ${dataDir}\n` +
      `  stored    ${plural(report.stored, 'report')}\n` +
      (report.unchanged > 0
        ? `  unchanged ${plural(report.unchanged, 'report')} (same state as last written: not rewritten)\n`
        : '') +
      `  stale     ${plural(report.stale, 'report')} (no newer than what was already stored)\n` +
      `  samples   ${report.samples} written in ${plural(report.pages, 'page')}\n`,
  );
  return printRejected(rejected, messages.length, io);
}

async function ingestToQueue(url: string, messages: InputMessage[], source: string, io: CliIO) {
  const { sendToQueue } = await import('./ingestToQueue.js');
  const run = await sendToQueue(url, messages);
  io.stdout.write(
    `${plural(messages.length, 'message')} from ${source}\n` +
      `  sent      ${plural(run.sent, 'message')} (${plural(run.reports, 'report')}) to ${url}\n` +
      '            the ingest stage stores them asynchronously; see its metrics and dead-letter queue\n',
  );
  return printRejected(run.rejected, messages.length, io);
}

function printRejected(rejected: { where: string; reason: string }[], total: number, io: CliIO): number {
  if (rejected.length === 0) return INGEST_EXIT.stored;
  io.stdout.write(`  rejected  ${rejected.length} of ${plural(total, 'message')}:\n`);
  for (const r of rejected) io.stdout.write(terminalSafe(`    ${r.where}: ${r.reason}\n`));
  return INGEST_EXIT.rejected;
}

export function addIngestCommand(
  program: Command,
  io: CliIO,
  done: (status: number) => void,
  stdin?: AsyncIterable<string | Buffer>,
): void {
  program
    .command('ingest')
    .description('send report messages to the ingest stage: the local store by default, or an SQS queue')
    .argument('<file>', 'report messages: a JSON file, JSON Lines, or - for standard input')
    .option('--data-dir <dir>', `the local store (default: ${DATA_DIR_HELP})`)
    .option('--queue <url>', 'send to this SQS queue instead of storing locally')
    .option(
      '--as-of-now',
      'move every time in the reports by one amount so the newest is now (for the shipped examples)',
    )
    .addHelpText('after', INGEST_EXIT_HELP)
    .action(async (file, opts) => done(await runIngestCommand(file, opts, io, stdin)));
}
