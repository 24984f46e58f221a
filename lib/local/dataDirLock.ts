/**
 * What a data directory must be before a store server opens it, and who holds it. One process at a
 * time opens the LevelDB files: dynalite's LevelDB refuses a second opener by crashing the process
 * with "Database is closed" from inside a request, which nothing can catch. That process is the
 * directory's store server (storeServer.ts), named with its endpoint in the lock file; every placid
 * command is a client of it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../model/errors.js';
import { dirProblem, makeDirectory } from './dirProblem.js';

export const LOCK_FILE = 'placid.lock';

/** The lock's holder: the server's pid, and its endpoint once it listens. */
export interface LockHolder {
  pid: number;
  endpoint?: string;
}

/**
 * Creates `dir` if missing and checks it can hold a store. A directory that holds other files and
 * no store is refused, so a mistyped --data-dir cannot litter it.
 */
export function checkDataDir(dir: string): void {
  makeDir(dir);
  // Placid's own files (placid.lock, placid.clients/, placid-store.log) are not the store's.
  const entries = readdirSync(dir).filter((e) => !e.startsWith('placid'));
  // LevelDB always keeps a CURRENT file; its absence beside other files means this is not a store.
  if (entries.length > 0 && !existsSync(join(dir, 'CURRENT'))) {
    throw new ConfigError(
      `${dir} holds other files and no placid store; pass an empty or new directory as --data-dir`,
    );
  }
  if (entries.length > 0) checkCurrentFile(dir);
}

/** Who holds `dir`'s lock, if anyone (a bare pid is a lock from before the server had an endpoint). */
export function lockHolder(dir: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, LOCK_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text);
    return typeof value === 'number' ? { pid: value } : (value as LockHolder);
  } catch {
    return { pid: Number.NaN };
  }
}

function makeDir(dir: string): void {
  try {
    makeDirectory(dir);
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'EEXIST' });
  } catch (error) {
    const problem = dirProblem(error);
    if (!problem) throw error;
    throw new ConfigError(`--data-dir ${dir} cannot hold a placid store: ${problem}`, { cause: error });
  }
}

/**
 * LevelDB's CURRENT names the live manifest (`MANIFEST-000015` and a newline). A damaged one makes
 * dynalite throw from inside a callback, which crashes the process with no message, so it is checked
 * before dynalite opens the directory.
 */
function checkCurrentFile(dir: string): void {
  const current = readFileSync(join(dir, 'CURRENT'), 'latin1');
  const manifest = /^(MANIFEST-\d+)\n$/.exec(current)?.[1];
  if (manifest !== undefined && existsSync(join(dir, manifest))) return;
  const why = manifest === undefined ? 'does not name a manifest' : `names ${manifest}, which is missing`;
  throw new ConfigError(
    `the local store ${dir} is damaged: its CURRENT file ${why}; restore the directory from a backup, or pass a new --data-dir and ingest again`,
  );
}

export function isAlive(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
