/**
 * Starts the detector thread of `placid serve` and talks to it: `run()` asks for one detector run
 * and resolves with its lines; `close()` ends the thread. One run at a time (serveDetector.ts
 * never overlaps them). The thread loads the bundled worker (dist/serve-detector-worker.mjs) when
 * this module is bundled, and its TypeScript entry (bin/serveDetectorWorker.ts) through tsx when it
 * runs from source (tests, the benchmarks).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../config/packageRoot.js';
import { closeWorker } from '../local/workerExit.js';
import type { DetectorThreadData, FromDetector, ToDetector } from './serveDetectorProtocol.js';

/** The bundle's name for the worker (scripts/build-cli.mjs). */
export const DETECTOR_WORKER_BUNDLE = 'serve-detector-worker.mjs';

/**
 * The thread's first module: imports the worker, through tsx's `tsImport` when it is TypeScript
 * (Node 20 does not apply a loader registered with `--import tsx` to a worker's imports).
 */
const BOOTSTRAP = new URL(
  `data:text/javascript,${encodeURIComponent(`
import { workerData } from 'node:worker_threads';
if (workerData.tsx) await (await import(workerData.tsx)).tsImport(workerData.entry, workerData.entry);
else await import(workerData.entry);
`)}`,
);

export interface DetectorThread {
  /** One detector run: the lines it printed, or why it failed; rejects when the thread has ended. */
  run(): Promise<{ lines: string[]; error?: string }>;
  /** False once the thread has ended (an uncaught error in it, or close). */
  readonly alive: boolean;
  close(): Promise<void>;
}

function workerEntry(): { entry: string; tsx?: string } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    return { entry: new URL('../../bin/serveDetectorWorker.ts', here).href, tsx: tsxEsmApi(here) };
  }
  return { entry: pathToFileURL(join(packageRoot(here), 'dist', DETECTOR_WORKER_BUNDLE)).href };
}

/** tsx's ESM API as a file URL, read from its exports map (its CommonJS twin cannot load ESM hooks here). */
function tsxEsmApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: { './esm/api': { import: { default: string } } };
  };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api'].import.default)).href;
}

/** Starts the thread; resolves once it has read its config, rejects with the thread's error if it cannot. */
export async function startDetectorThread(options: DetectorThreadData): Promise<DetectorThread> {
  const worker = new Worker(BOOTSTRAP, { workerData: { ...workerEntry(), options } });
  // A failure of the thread fails whatever waits on it: the start, or the run in progress.
  let waiting: { resolve(m: FromDetector): void; reject(e: unknown): void } | undefined;
  let ended: Error | undefined;
  const next = () =>
    new Promise<FromDetector>((resolve, reject) => {
      if (ended) reject(ended);
      else waiting = { resolve, reject };
    });
  const fail = (error: Error) => {
    ended ??= error;
    waiting?.reject(error);
    waiting = undefined;
  };
  worker.on('message', (message: FromDetector) => {
    const w = waiting;
    waiting = undefined;
    w?.resolve(message);
  });
  worker.on('error', (error) =>
    fail(new Error(`the detector thread failed: ${error.message}`, { cause: error })),
  );
  worker.on('exit', (code) => fail(new Error(`the detector thread ended (exit code ${code})`)));
  const post = (message: ToDetector) => worker.postMessage(message);
  try {
    await next();
  } catch (error) {
    await worker.terminate();
    throw (error as Error).cause ?? error;
  }
  // Waits for runs, never keeps the process alive by itself: the server does.
  worker.unref();
  let closing: Promise<void> | undefined;
  return {
    get alive() {
      return ended === undefined;
    },
    run: async () => {
      const reply = next();
      // Held while a run is in flight: a stopping server has closed its listener and must not
      // exit before the run it waits for has finished.
      worker.ref();
      post({ type: 'run' });
      try {
        const message = await reply;
        return message.type === 'ran' ? { lines: message.lines, error: message.error } : { lines: [] };
      } finally {
        worker.unref();
      }
    },
    close: () => {
      closing ??= (async () => {
        if (ended) return;
        worker.ref();
        await closeWorker(worker, () => post({ type: 'close' }));
      })();
      return closing;
    },
  };
}
