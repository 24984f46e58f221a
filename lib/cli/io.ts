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
 * A reader that stops early (`placid schedule --json | head`) closes the pipe, and Node reports
 * EPIPE as an unhandled 'error' event: a stack trace and exit status 1 for output nobody wants.
 * Drop the rest of the output instead and let the command finish its work (a stored decision is
 * still stored) with its own exit status. Other write errors (a full disk) still surface.
 */
export function dropOutputOnClosedReader(stream: NodeJS.WritableStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
    throw err;
  });
}
