/**
 * Where a command writes: stdout for results, stderr for errors. Tests pass their own sinks.
 * Bytes are UTF-8 text cut at character boundaries (large JSON is written in such pieces).
 */
export interface CliIO {
  stdout: { write(chunk: string | Uint8Array): unknown };
  stderr: { write(chunk: string): unknown };
}

export const processIO: CliIO = { stdout: process.stdout, stderr: process.stderr };
