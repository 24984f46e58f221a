import { CommanderError } from '@commander-js/extra-typings';
import { PlacidError } from '../model/errors.js';
import { EXIT, exitCodeFor, operatingProblem } from './exitCodes.js';
import { terminalSafe } from './format.js';
import { type CliIO, processIO } from './io.js';
import { buildProgram, oneLine } from './program.js';

/**
 * Entry point of the `placid` CLI: runs one command and returns the exit status (see --help).
 * `io` lets tests capture the output.
 *
 * @example
 * process.exitCode = await main(['schedule', '--hosts', 'hosts.json', '--request', 'req.json', '--json']);
 */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  let status: number = EXIT.placed;
  const program = buildProgram(io, (s) => {
    status = s;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return status;
  } catch (err) {
    return reportFailure(err, io);
  }
}

function reportFailure(err: unknown, io: CliIO): number {
  // Commander has already printed its own message (or the help it was asked for).
  if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.placed : EXIT.badInput;
  const code = exitCodeFor(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code === EXIT.internalError) {
    io.stderr.write(terminalSafe(`placid: internal error: ${oneLine(message)}\n`));
    if (err instanceof Error && err.stack) io.stderr.write(terminalSafe(`${err.stack}\n`));
  } else {
    const hint = err instanceof PlacidError ? undefined : operatingProblem(err);
    const said = hint === undefined || message.includes(hint);
    io.stderr.write(terminalSafe(`placid: ${oneLine(said ? message : `${message} (${hint})`)}\n`));
  }
  return code;
}
