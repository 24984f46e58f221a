/**
 * One process at a time per on-disk store. dynalite's LevelDB refuses a second opener by crashing
 * the process with "Database is closed" from inside a request, which nothing can catch, so Placid
 * takes its own lock file first and names the holder.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../model/errors.js';
import { dirProblem, makeDirectory } from './dirProblem.js';

const LOCK_FILE = 'placid.lock';

/**
 * Takes the lock on `dir` (created if missing); returns the release function. A directory that
 * holds other files and no store is refused, so a mistyped --data-dir cannot litter it.
 */
export function lockDataDir(dir: string): () => void {
  makeDir(dir);
  const entries = readdirSync(dir).filter((e) => e !== LOCK_FILE);
  // LevelDB always keeps a CURRENT file; its absence beside other files means this is not a store.
  if (entries.length > 0 && !existsSync(join(dir, 'CURRENT'))) {
    throw new ConfigError(
      `${dir} holds other files and no placid store; pass an empty or new directory as --data-dir`,
    );
  }
  if (entries.length > 0) checkCurrentFile(dir);
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (isAlive(holder)) {
        throw new ConfigError(
          `the local store ${dir} is in use by another placid process (pid ${holder}); wait for it or pass another --data-dir`,
        );
      }
      rmSync(path, { force: true }); // left behind by a process that died
    }
  }
  throw new ConfigError(`cannot lock the local store ${dir}: another process keeps taking it`);
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

function isAlive(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
