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
  return err instanceof PlacidError ? EXIT.badInput : EXIT.internalError;
}
