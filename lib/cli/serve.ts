/**
 * `placid serve`: the schedule stage's decision API (the Function URL handler itself, not a copy)
 * as a local HTTP server over the local store, so an operator can try Placid beside a test Nova
 * and the Nova plug-in's tests can run end to end; beside it the detector loop (serveDetector.ts).
 * Stops gracefully on SIGINT/SIGTERM.
 */
import type { Command } from '@commander-js/extra-typings';
import { parseDuration } from '../collect/durationText.js';
import { novaMajor } from '../config/novaRelease.js';
import type { LocalDynamo } from '../local/dynalite.js';
import type { FunctionUrlServer } from '../local/functionUrlServer.js';
import type { FleetSnapshot } from '../schedule/snapshot.js';
import type { FleetStore } from '../store/fleetStore.js';
import { InputError } from './errors.js';
import { EXIT } from './exitCodes.js';
import { terminalSafe } from './format.js';
import { DATA_DIR_HELP } from './ingest.js';
import type { CliIO } from './io.js';
import { parseDetectEvery, serveDetector } from './serveDetector.js';
import type { ReplicaOptions } from './serveReplica.js';
import { stopOnSignals } from './stopSignals.js';
import { ENDPOINTS_HELP, SETTINGS_HELP, TEMPLATE_HELP, type WorkflowFiles } from './workflowOptions.js';

const DEFAULT_SERVE_HOST = '127.0.0.1';
const DEFAULT_SERVE_PORT = 8780;

/**
 * Something that runs beside the server for as long as it does (the seam for a detector loop):
 * started after the store opens, stopped before it closes.
 */
export interface ServeExtension {
  name: string;
  start(resources: { store: FleetStore; dynamo: LocalDynamo; io: CliIO }): Promise<{ stop(): Promise<void> }>;
}

export interface ServeOptions {
  dataDir?: string;
  /** A DynamoDB that is already running (DynamoDB Local, dynalite in its own process); excludes dataDir. */
  dynamodbEndpoint?: string;
  host?: string;
  port?: number;
  /** nova.conf / JSON scheduler config; Nova's defaults when absent. */
  config?: string;
  /** Read the deployed tables, read-only (serveReplica.ts); excludes dataDir and dynamodbEndpoint. */
  replica?: ReplicaOptions;
  /** Answers and /health say the snapshot is stale once its store has not answered for this long. */
  staleAfterMs?: number;
  /** Pins the Nova release decided as (over [placid] nova_release and the requests'). */
  novaRelease?: string;
  extensions?: readonly ServeExtension[];
  io: CliIO;
}

export interface RunningServe {
  url: string;
  /** The store: its directory, or the DynamoDB endpoint. */
  dataDir: string;
  /** Hosts in the store when the server started. */
  hosts: number;
  /** Stops accepting, finishes in-flight requests, stops the extensions, closes the store. */
  close(): Promise<void>;
}

/** Opens the store, builds the scheduler and listens. */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
  // Loaded here, so `placid --help` and the other commands start without the store and the engine.
  const [
    { createScheduler, loadPluginModules },
    { defaultDataDir },
    { startFunctionUrlServer },
    { LocalPipeline },
    { FleetSnapshot },
    { readConfig },
    { withPlacidFilters },
    { releaseSchedulers },
    { openReplicaStore },
  ] = await Promise.all([
    import('../engine/registry.js'),
    import('../local/dynalite.js'),
    import('../local/functionUrlServer.js'),
    import('../local/pipeline.js'),
    import('../schedule/snapshot.js'),
    import('./inputs.js'),
    import('../rebalance/filters/index.js'),
    import('../schedule/releases.js'),
    import('./serveReplica.js'),
  ]);
  const { config, baseDir } = await readConfig(options.config);
  if (options.novaRelease !== undefined) config.placid.nova_release = checkedRelease(options.novaRelease);
  const plugins = withPlacidFilters(await loadPluginModules(config, baseDir));
  const scheduler = createScheduler(config, plugins);
  // A local server's log lines are for people; the handler's EMF metrics would flood stdout.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const [{ createUrlHandler }, { withApprovalRoute }] = await Promise.all([
    import('../../functions/schedule/endpoint.js'),
    import('./serveApproval.js'),
  ]);
  if (options.dataDir && options.dynamodbEndpoint) {
    throw new InputError(
      '--data-dir and --dynamodb-endpoint exclude each other: one store, local or running',
    );
  }
  if (options.replica && (options.dataDir || options.dynamodbEndpoint)) {
    throw new InputError('--replica reads the deployed tables: drop --data-dir and --dynamodb-endpoint');
  }
  const endpoint = options.dynamodbEndpoint;
  // dynalite answers from the store server's process (in memory: a worker thread), so its work and
  // its heap's collections stay off the thread that answers Nova (each decision is a store write).
  const storeOptions = { serviceDownTimeSeconds: config.DEFAULT.service_down_time };
  const replica = options.replica && openReplicaStore(options.replica, config.DEFAULT.service_down_time);
  const dataDir = replica?.label ?? endpoint ?? options.dataDir ?? defaultDataDir();
  const pipeline = replica
    ? undefined
    : await LocalPipeline.start(
        endpoint
          ? { endpoint, stages: [], store: storeOptions }
          : { dataDir, stages: [], dynaliteThread: true, store: storeOptions },
      );
  const store = replica?.store ?? pipeline!.store;
  const closeStore = async () => (replica ? replica.close() : pipeline!.close());
  const writes = pendingWrites(options.io);
  // Requests never wait for the store's change feed: claims are conditional writes, so a snapshot
  // a second old costs at most a lost claim race, and the latency stays the engine's.
  const snapshot = new FleetSnapshot(store, {
    maxAgeMs: SNAPSHOT_MAX_AGE_MS,
    revalidateInBackground: true,
    quickOverlapMs: SNAPSHOT_MAX_AGE_MS,
    staleAfterMs: options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS,
  });
  // Stopped last (stops run in reverse): nothing may touch dynalite once it closes.
  const stops: { stop(): Promise<void> }[] = [{ stop: () => snapshot.settled() }, stopWhenWritten(writes)];
  let server: FunctionUrlServer | undefined;
  try {
    // Read the fleet now, so the first request is answered warm.
    await snapshot.refresh();
    stops.push(keepFresh(snapshot));
    const deps = {
      store,
      snapshot,
      scheduler,
      forRelease: releaseSchedulers(config, plugins),
      deferWrite: writes.add,
      readOnly: replica !== undefined,
    };
    const handler = createUrlHandler(deps);
    // A replica approves nothing: its tables belong to the deployed stack.
    server = await startFunctionUrlServer(replica ? handler : withApprovalRoute(handler, store), {
      host: options.host ?? DEFAULT_SERVE_HOST,
      port: options.port ?? DEFAULT_SERVE_PORT,
      functionName: 'placid-serve',
      routes: { '/health': () => health(snapshot, replica !== undefined) },
    });
    const dynamo = pipeline?.dynamo;
    // A replica runs no extension (the detector acts on a fleet it does not own).
    if (dynamo)
      for (const ext of options.extensions ?? [])
        stops.push(await ext.start({ store, dynamo, io: options.io }));
  } catch (error) {
    await shutDown(server, stops, closeStore);
    throw error;
  }
  const listening = server;
  return {
    url: listening.url,
    dataDir,
    hosts: snapshot.size,
    close: () => shutDown(listening, stops, closeStore),
  };
}

function checkedRelease(text: string): string {
  if (novaMajor(text) === undefined)
    throw new InputError(`--nova-release ${text}: must be a Nova version, e.g. 26.2.2`);
  return text;
}

/** How stale the fleet may get before a background read of the change feed starts. */
const SNAPSHOT_MAX_AGE_MS = 1000;
/** Answers and /health call the snapshot stale after its store has not answered for this long. */
const DEFAULT_STALE_AFTER_MS = 120_000;

/**
 * Reads the change feed every SNAPSHOT_MAX_AGE_MS whether requests come or not, so a request after
 * a quiet minute is decided on a fleet a second old, not a minute (every host would look stale).
 */
function keepFresh(snapshot: FleetSnapshot) {
  const timer = setInterval(() => void snapshot.refresh(), SNAPSHOT_MAX_AGE_MS);
  timer.unref();
  return { stop: async () => clearInterval(timer) };
}

/** GET /health: 200 whether fresh or stale (a load balancer must not drop every replica at once). */
function health(snapshot: FleetSnapshot, replica: boolean) {
  const stale = snapshot.staleness();
  const body = { status: stale ? 'stale' : 'ok', replica, hosts: snapshot.size, ...(stale && { stale }) };
  return { status: 200, body };
}

/**
 * Advisory records written after their answer went out; stopping waits for them. Each write starts
 * on the next turn of the event loop (setImmediate), when the handler has handed its answer to the
 * socket: started at once, the SDK's share of the write ran before the answer was sent. It is
 * tracked from the moment it is handed over, so a stop right after the answer still waits for it.
 */
function pendingWrites(io: CliIO) {
  const pending = new Set<Promise<unknown>>();
  return {
    add: (write: () => Promise<unknown>): void => {
      const tracked = new Promise<void>((resolve) => setImmediate(resolve))
        .then(write)
        .catch((error: unknown) => {
          io.stderr.write(
            terminalSafe(`placid serve: recording an advisory decision failed: ${String(error)}\n`),
          );
        })
        .finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    settled: async (): Promise<void> => {
      await Promise.all(pending);
    },
  };
}

/** Stopped after the server has answered its last request. */
function stopWhenWritten(writes: ReturnType<typeof pendingWrites>) {
  return { stop: () => writes.settled() };
}

async function shutDown(
  server: FunctionUrlServer | undefined,
  stops: readonly { stop(): Promise<void> }[],
  closeStore: () => Promise<void>,
): Promise<void> {
  try {
    await server?.close();
    for (const s of [...stops].reverse()) await s.stop();
  } finally {
    await closeStore();
  }
}

export interface ServeArgs extends WorkflowFiles {
  dataDir?: string;
  dynamodbEndpoint?: string;
  host?: string;
  port?: string;
  config?: string;
  /** False with `--no-detect`. Default true. */
  detect?: boolean;
  detectEvery?: string;
  /** Read the deployed tables read-only (with --dynamodb-endpoint: that DynamoDB's). */
  replica?: boolean;
  tablePrefix?: string;
  staleAfter?: string;
  /** Pins the Nova release decided as (over [placid] nova_release and the requests'). */
  novaRelease?: string;
}

/** Runs until `signal` aborts (SIGINT/SIGTERM from the command line). */
export async function runServe(args: ServeArgs, io: CliIO, signal: AbortSignal): Promise<number> {
  const everyMs = parseDetectEvery(args.detectEvery);
  const detect = args.detect !== false && !args.replica;
  const extensions = !detect
    ? []
    : [
        serveDetector({
          everyMs,
          config: args.config,
          endpoints: args.endpoints,
          settings: args.settings,
          template: args.template,
        }),
      ];
  const running = await startServe({
    dataDir: args.dataDir,
    ...(args.replica
      ? { replica: { endpoint: args.dynamodbEndpoint, tablePrefix: args.tablePrefix } }
      : { dynamodbEndpoint: args.dynamodbEndpoint }),
    staleAfterMs: parseStaleAfter(args.staleAfter),
    novaRelease: args.novaRelease,
    host: args.host,
    config: args.config,
    port: parsePort(args.port),
    extensions,
    io,
  });
  io.stdout.write(
    terminalSafe(
      `placid serve: listening on ${running.url} (store ${running.dataDir}, ${running.hosts} hosts); ` +
        'POST a request spec, or one with advisory: true and candidates' +
        (detect ? `; detector every ${everyMs / 1000}s\n` : '; detector off\n'),
    ),
  );
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
  io.stdout.write('placid serve: stopped\n');
  return EXIT.placed;
}

function parseStaleAfter(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === undefined || ms < 1000)
    throw new InputError(`--stale-after ${text}: must be a duration of at least 1s, e.g. 2m`);
  return ms;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_SERVE_PORT;
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65_535))
    throw new InputError(`--port ${text}: must be a whole number from 0 to 65535`);
  return port;
}

export function addServeCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('serve')
    .description(
      "the schedule stage's decision API as a local HTTP server over the local store, with the detector running every minute",
    )
    .option('--data-dir <dir>', `the local store (default: ${DATA_DIR_HELP})`)
    .option(
      '--dynamodb-endpoint <url>',
      'use a DynamoDB that is already running (DynamoDB Local, dynalite) instead of --data-dir',
    )
    .option('--host <address>', 'the address to listen on', DEFAULT_SERVE_HOST)
    .option('--port <port>', `the port to listen on (0: any free port)`, String(DEFAULT_SERVE_PORT))
    .option(
      '--config <file>',
      "nova.conf-style INI, or .json (with [rebalance] for the detector); Nova's defaults when omitted",
    )
    .option(
      '--replica',
      'read the deployed tables, read-only (AWS credential chain and region; PLACID_TABLE_<NAME> or --table-prefix); advisory requests only, no detector',
    )
    .option('--table-prefix <prefix>', 'with --replica: tables named <prefix><name> (default placid-)')
    .option(
      '--stale-after <duration>',
      'say the fleet is stale once the store has not answered this long',
      '2m',
    )
    .option(
      '--nova-release <version>',
      'decide as this Nova release (e.g. 26.2.2), whatever the requests say',
    )
    .option('--detect-every <duration>', 'run the detector this often (e.g. 30s, 5m)', '60s')
    .option('--no-detect', 'do not run the detector (the decision API only)')
    .option('--endpoints <file>', ENDPOINTS_HELP)
    .option('--settings <file>', SETTINGS_HELP)
    .option('--template <file>', TEMPLATE_HELP)
    .addHelpText(
      'after',
      '\nSame requests and answers as the Function URL (docs/schedule.md). Stops on SIGINT or SIGTERM\n' +
        'after the requests in flight are answered, their advisory decisions recorded, and the\n' +
        'detector run in progress has finished.\n' +
        'The detector runs as `placid detect` does: queued migrations execute through the local\n' +
        'state machine and their outcomes land in the store.',
    )
    .action(async (opts) => {
      const stop = stopOnSignals();
      try {
        done(await runServe(opts, io, stop.signal));
      } finally {
        stop.release();
      }
    });
}
