/** Where a command writes: stdout for results, stderr for errors. Tests pass their own sinks. */
export interface CliIO {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
}

export const processIO: CliIO = { stdout: process.stdout, stderr: process.stderr };
