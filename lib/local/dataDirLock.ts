/**
 * One process at a time per on-disk store. dynalite's LevelDB refuses a second opener by crashing
 * the process with "Database is closed" from inside a request, which nothing can catch, so Placid
 * takes its own lock file first and names the holder.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../model/errors.js';

const LOCK_FILE = 'placid.lock';

/**
 * Takes the lock on `dir` (created if missing); returns the release function. A directory that
 * holds other files and no store is refused, so a mistyped --data-dir cannot litter it.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const entries = readdirSync(dir).filter((e) => e !== LOCK_FILE);
  // LevelDB always keeps a CURRENT file; its absence beside other files means this is not a store.
  if (entries.length > 0 && !existsSync(join(dir, 'CURRENT'))) {
    throw new ConfigError(
      `${dir} holds other files and no placid store; pass an empty or new directory as --data-dir`,
    );
  }
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
