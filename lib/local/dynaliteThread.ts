/**
 * dynalite in a worker thread, still on 127.0.0.1 and a free port: the store's side of every
 * request (parsing, validation, the in-memory LevelDB) then runs on another core while this thread
 * runs the handlers, and the two heaps collect their garbage apart. The clients are the same real
 * SDK clients over HTTP; only where the server's JavaScript runs changes. Used by the simulation,
 * whose requests otherwise share one core with the server answering them.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { closeWorker } from './workerExit.js';

export interface DynaliteServerOptions {
  /** Directory for the LevelDB files; in memory when absent. */
  path?: string;
}

export interface DynaliteServer {
  port: number;
  /** Closes the server (flushing an on-disk store) and ends the thread. */
  close(): Promise<void>;
}

/** The worker's whole program (CommonJS, evaluated): start dynalite, say the port, close on request. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const server = require(workerData.module)(workerData.options);
server.once('error', (error) => { throw error; });
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => server.close(() => parentPort.close()));
`;

export async function startDynaliteThread(options: DynaliteServerOptions = {}): Promise<DynaliteServer> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      module: createRequire(import.meta.url).resolve('dynalite'),
      options: { path: options.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 },
    },
  });
  // A thread left running must not keep the process alive after its last request.
  worker.unref();
  const port = await new Promise<number>((resolve, reject) => {
    const exited = (code: number) =>
      reject(new Error(`the dynalite thread exited (code ${code}) before it listened`));
    worker.once('error', reject);
    worker.once('exit', exited);
    worker.once('message', (m: { port: number }) => {
      worker.off('error', reject);
      worker.off('exit', exited);
      resolve(m.port);
    });
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= closeWorker(worker, () => worker.postMessage('close'));
    return closing;
  };
  return { port, close };
}
