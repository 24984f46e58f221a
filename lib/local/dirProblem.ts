import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Why a directory could not be created or used, in a few words, for the error codes a user can fix. */
const DIR_PROBLEMS: Record<string, string> = {
  EEXIST: 'it is a file, not a directory',
  ENOTDIR: 'part of the path is a file, not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'not a usable path',
  ENAMETOOLONG: 'the path is too long',
  ERR_INVALID_ARG_VALUE: 'not a valid path',
};

/** The problem `error` (from mkdir and friends) names, or undefined when it is not one of those. */
export function dirProblem(error: unknown): string | undefined {
  return DIR_PROBLEMS[(error as NodeJS.ErrnoException).code ?? ''];
}

/**
 * mkdir -p, one level at a time: Node's recursive mkdir never returns on a path under /proc or
 * /sys (it retries the ENOENT such file systems answer), so each missing level is made on its own
 * and the first refusal ends it.
 */
export function makeDirectory(dir: string): void {
  const path = resolve(dir);
  const missing: string[] = [];
  for (let at = path; !exists(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const level of missing) mkdirSync(level);
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
