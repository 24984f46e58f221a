import { EXIT } from './exitCodes.js';

/**
 * Where a command writes: stdout for results, stderr for errors. Tests pass their own sinks.
 * Bytes are UTF-8 text cut at character boundaries (large JSON is written in such pieces).
 */
export interface CliIO {
  stdout: { write(chunk: string | Uint8Array): unknown };
  stderr: { write(chunk: string): unknown };
}

export const processIO: CliIO = { stdout: process.stdout, stderr: process.stderr };

/**
 * What the CLI does when stdout fails. A reader that stops early (`placid schedule --json | head`)
 * closes the pipe: the rest of the output is dropped and the command finishes its work (a stored
 * decision is still stored) with its own exit status. Any other failure (a full disk, a read-only
 * file) ends the command with one line naming it and exit status 2, not Node's stack trace and a
 * status 1 that reads as NoValidHost.
 */
export function handleOutputErrors(stream: NodeJS.WritableStream, stderr: CliIO['stderr']): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') return;
    stderr.write(
      `placid: cannot write the output (${err.message}); send it to a file or device that takes it\n`,
    );
    process.exit(EXIT.badInput);
  });
}
