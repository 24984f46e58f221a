/**
 * One on-disk store that every placid command can use at once. The first command to open a data
 * directory starts its store server: dynalite in a detached process of its own on 127.0.0.1 and a
 * free port, which it records with its pid in the lock file. Every command, that one included, is
 * a client over HTTP, so `placid serve`, `ingest`, `fleet`, `plans` and `approve` run side by side;
 * each write is one DynamoDB request that the one server applies whole.
 *
 * A client registers under `placid.clients/` (a file named by its pid) while it has the store open.
 * The server exits once no registered client is alive, none of its requests is in flight and none
 * has come for IDLE_MS: it stops listening and checks in the same turn, closes LevelDB, and only
 * then gives up the lock, so a second server never opens the files while the first has them.
 * A client killed mid-write leaves a registration naming a dead pid, which the server drops.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ConfigError } from '../model/errors.js';
import { checkDataDir, isAlive, LOCK_FILE, lockHolder } from './dataDirLock.js';

const CLIENTS_DIR = 'placid.clients';
const LOG_FILE = 'placid-store.log';
/** How long a server with no client waits for another before it exits. */
const IDLE_MS = 2_000;
const START_TIMEOUT_MS = 30_000;

/** The server's whole program (CommonJS, run with `node -e`): take the lock, serve, exit when unused. */
const SERVER_SOURCE = `
const fs = require('node:fs');
const { join } = require('node:path');
const [dynaliteModule, dir, idleMs] = process.argv.slice(1);
const lockPath = join(dir, ${JSON.stringify(LOCK_FILE)});
const clientsDir = join(dir, ${JSON.stringify(CLIENTS_DIR)});
const alive = (pid) => {
  if (!(pid > 0)) return false;
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
};
const holderOf = (text) => { try { const v = JSON.parse(text); return typeof v === 'number' ? v : v.pid; } catch { return NaN; } };
function takeLock() {
  for (let attempt = 0; attempt < 3; attempt++) {
    try { fs.writeFileSync(lockPath, JSON.stringify({ pid: process.pid }), { flag: 'wx' }); return true; }
    catch (e) { if (e.code !== 'EEXIST') throw e; }
    let text;
    try { text = fs.readFileSync(lockPath, 'utf8'); } catch { continue; }
    if (alive(holderOf(text))) return false;
    // A dead holder's lock: move it aside (one mover wins), and put it back if it changed meanwhile.
    const aside = lockPath + '.' + process.pid;
    try { fs.renameSync(lockPath, aside); } catch { continue; }
    const moved = fs.readFileSync(aside, 'utf8');
    if (moved !== text) { try { fs.linkSync(aside, lockPath); } catch {} fs.rmSync(aside, { force: true }); return false; }
    fs.rmSync(aside, { force: true });
  }
  return false;
}
if (!takeLock()) process.exit(0);
const server = require(dynaliteModule)({ path: dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
let last = Date.now();
let active = 0;
server.on('request', (req, res) => {
  active++;
  last = Date.now();
  res.on('close', () => { active--; last = Date.now(); });
});
function liveClients() {
  let names;
  try { names = fs.readdirSync(clientsDir); } catch { return false; }
  let any = false;
  for (const name of names) {
    if (alive(Number.parseInt(name, 10))) any = true;
    else fs.rmSync(join(clientsDir, name), { force: true });
  }
  return any;
}
function stop() {
  clearInterval(timer);
  server.close(() => { fs.rmSync(lockPath, { force: true }); process.exit(0); });
}
let timer;
server.listen(0, '127.0.0.1', () => {
  const tmp = lockPath + '.' + process.pid + '.tmp';
  fs.writeFileSync(tmp, JSON.stringify({ pid: process.pid, endpoint: 'http://127.0.0.1:' + server.address().port }));
  fs.renameSync(tmp, lockPath);
  timer = setInterval(() => {
    if (active === 0 && Date.now() - last >= Number(idleMs) && !liveClients()) stop();
  }, 100);
});
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
`;

export interface StoreServerConnection {
  endpoint: string;
  /** Ends this client's registration; the server exits when the last one is gone. */
  release(): void;
}

/** Connects to `dir`'s store server, starting it first when none runs. */
export async function connectStoreServer(dir: string): Promise<StoreServerConnection> {
  checkDataDir(dir);
  const release = register(dir);
  try {
    return { endpoint: await serverEndpoint(dir), release };
  } catch (error) {
    release();
    throw error;
  }
}

function register(dir: string): () => void {
  const clients = join(dir, CLIENTS_DIR);
  mkdirSync(clients, { recursive: true });
  const path = join(clients, `${process.pid}.${Math.random().toString(36).slice(2)}`);
  writeFileSync(path, '');
  return () => rmSync(path, { force: true });
}

async function serverEndpoint(dir: string): Promise<string> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let startedAt = Number.NEGATIVE_INFINITY;
  for (;;) {
    const holder = lockHolder(dir);
    const alive = holder !== undefined && isAlive(holder.pid);
    if (alive && holder.endpoint && (await listening(holder.endpoint))) return holder.endpoint;
    // A server that is starting has the lock and no endpoint yet; one that is stopping refuses.
    if (!alive && Date.now() - startedAt > 1_000) {
      startServer(dir);
      startedAt = Date.now();
    }
    if (Date.now() > deadline) {
      throw new ConfigError(
        `the store server for ${dir} did not start within ${START_TIMEOUT_MS / 1000} s; see ${join(dir, LOG_FILE)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function startServer(dir: string): void {
  const log = openSync(join(dir, LOG_FILE), 'a');
  const dynalite = createRequire(import.meta.url).resolve('dynalite');
  const child = spawn(process.execPath, ['-e', SERVER_SOURCE, dynalite, dir, String(IDLE_MS)], {
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  closeSync(log);
}

function listening(endpoint: string): Promise<boolean> {
  const { hostname, port } = new URL(endpoint);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
