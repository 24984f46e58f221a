/**
 * The built CLI (bin/placid.cjs over dist/) as a child process, as an operator runs it; optionally
 * with its wall clock moved forward (futureClock.mjs), to run it "years later".
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = `${root}bin/placid.cjs`;
const futureClock = `${root}test/helpers/futureClock.mjs`;

export const TEN_YEARS_MS = 10 * 365 * 86_400_000;

export function buildCli(): void {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root });
}

export interface ChildOptions {
  /** Move the child's clock forward by this much. */
  clockOffsetMs?: number;
  env?: NodeJS.ProcessEnv;
}

function nodeArgs(args: string[], options: ChildOptions): string[] {
  return options.clockOffsetMs ? ['--import', futureClock, bin, ...args] : [bin, ...args];
}

function childEnv(options: ChildOptions): NodeJS.ProcessEnv {
  return { ...process.env, ...options.env, PLACID_TEST_CLOCK_OFFSET_MS: String(options.clockOffsetMs ?? 0) };
}

/** Runs `placid ARGS` to the end. */
export function runPlacid(args: string[], options: ChildOptions = {}) {
  const run = spawnSync(process.execPath, nodeArgs(args, options), {
    cwd: root,
    env: childEnv(options),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Starts `placid ARGS` and leaves it running; its output accumulates in `out()`. */
export function startPlacid(args: string[], options: ChildOptions = {}) {
  const child: ChildProcess = spawn(process.execPath, nodeArgs(args, options), {
    cwd: root,
    env: childEnv(options),
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, exited };
}
