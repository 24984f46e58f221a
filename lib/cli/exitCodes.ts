import { NoValidHostError } from '../engine/errors.js';
import { PlacidError } from '../model/errors.js';

/** The `placid` exit statuses (documented in --help). */
export const EXIT = {
  placed: 0,
  noValidHost: 1,
  badInput: 2,
  internalError: 3,
} as const;

export const EXIT_STATUS_HELP = `
Exit status:
  0  every instance was placed
  1  NoValidHost: no host can take the request (the decision is still printed)
  2  bad input or configuration: an unreadable or invalid hosts/request/config file, an unknown
     option, filter or weigher, a plugin that failed, a usage error, or output that cannot be
     written
  3  internal error (a bug in placid; the stack trace is printed)`;

/** The top-level help's: what every command shares; each command's --help gives its own. */
export const PROGRAM_EXIT_STATUS_HELP = `
Exit status:
  0  the command did what it was asked
  1  NoValidHost (schedule, demo): no host can take the request (the decision is still printed)
  2  bad input or configuration: an unreadable or invalid file, an unknown option, filter or
     weigher, a plugin that failed, a usage error, or output that cannot be written
  3  internal error (a bug in placid; the stack trace is printed)
Each command's --help lists its own.`;

/** The exit status for an error that escaped a command. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof NoValidHostError) return EXIT.noValidHost;
  if (operatingProblem(err)) return EXIT.badInput;
  return err instanceof PlacidError ? EXIT.badInput : EXIT.internalError;
}

/**
 * Problems of the machine or network the operator fixes (a port in use, an address that is not
 * local, a name that does not resolve, a directory they may not write): not bugs, so exit 2 with
 * one line, never an internal error.
 */
const OPERATING_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'the port is in use by another process: pick another with --port',
  EADDRNOTAVAIL: "the address is not one of this machine's: pick another with --host",
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS did not answer)',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
};

/** The operator's problem `err` (or its cause) names, as a hint; undefined for anything else. */
export function operatingProblem(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as Error).cause, depth++) {
    const code = String((e as NodeJS.ErrnoException).code);
    if (Object.hasOwn(OPERATING_PROBLEMS, code)) return OPERATING_PROBLEMS[code];
  }
  return undefined;
}
