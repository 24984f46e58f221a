import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { OracleCase, Verdict } from './case.js';

/** Debian's Python: python3-nova installs into its dist-packages, not into another Python's. */
export const SYSTEM_PYTHON = '/usr/bin/python3';
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'oracle.py');

export interface OracleAnswer {
  id: number;
  filters?: Record<string, Verdict[]>;
  weighers?: Record<string, number[] | string>;
  /** The oracle could not build Nova's objects from the case (a generator bug, not a verdict). */
  case_error?: string;
}

interface Hello {
  ready?: boolean;
  fatal?: string;
  nova?: string;
  filters?: string[];
  weighers?: string[];
}

/** Raised when real Nova cannot run: the parity tests must fail, loudly, rather than skip. */
export class NovaUnavailableError extends Error {
  constructor(message: string) {
    super(
      `${message}. The Nova oracle needs python3-nova 26 (Zed) under ${SYSTEM_PYTHON}: ` +
        'apt-get install -y --no-install-recommends python3-nova (npm test installs it when missing)',
    );
    this.name = 'NovaUnavailableError';
  }
}

/**
 * One long-lived `oracle.py` process (Nova takes seconds to import): cases go in as JSON lines,
 * answers come back in order, one per case.
 */
export class NovaOracle {
  private readonly waiting: { line: (line: string) => void; fail: (err: Error) => void }[] = [];
  private exited: string | null = null;
  private nextId = 0;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly hello: Required<Pick<Hello, 'nova' | 'filters' | 'weighers'>>,
    lines: AsyncIterator<string>,
  ) {
    void this.pump(lines);
  }

  static async start(python = SYSTEM_PYTHON): Promise<NovaOracle> {
    if (!existsSync(python)) throw new NovaUnavailableError(`${python} does not exist`);
    const child = spawn(python, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const first = await Promise.race([
      lines.next(),
      new Promise<{ done: true; value: undefined }>((resolve) =>
        child.once('exit', () => resolve({ done: true, value: undefined })),
      ),
    ]);
    const hello: Hello = first.done ? {} : JSON.parse(first.value);
    if (!hello.ready || !hello.nova || !hello.filters || !hello.weighers) {
      child.kill();
      throw new NovaUnavailableError(
        hello.fatal ?? `oracle.py did not start: ${stderr.trim() || 'no output'}`,
      );
    }
    if (!hello.nova.startsWith('26.')) {
      child.kill();
      throw new NovaUnavailableError(`found Nova ${hello.nova}, the oracle is written for Nova 26`);
    }
    const oracle = new NovaOracle(
      child,
      { nova: hello.nova, filters: hello.filters, weighers: hello.weighers },
      lines,
    );
    child.once('exit', (code) => {
      oracle.exited = `oracle.py exited (${code}): ${stderr.trim().slice(-800)}`;
      for (const w of oracle.waiting.splice(0)) w.fail(new Error(oracle.exited));
    });
    return oracle;
  }

  /** Nova's verdicts and weights for one case. */
  ask(c: Omit<OracleCase, 'id'>): Promise<OracleAnswer> {
    if (this.exited) return Promise.reject(new Error(this.exited));
    const id = ++this.nextId;
    const answer = new Promise<OracleAnswer>((resolve, reject) => {
      const line = (text: string) => {
        const a = JSON.parse(text) as OracleAnswer;
        if (a.id !== id) reject(new Error(`oracle answered case ${a.id}, expected ${id}`));
        else resolve(a);
      };
      this.waiting.push({ line, fail: reject });
    });
    this.child.stdin.write(`${JSON.stringify({ ...c, id })}\n`);
    return answer;
  }

  /** Many cases at once: written together, so Nova works while answers are read. */
  askAll(cases: readonly Omit<OracleCase, 'id'>[]): Promise<OracleAnswer[]> {
    return Promise.all(cases.map((c) => this.ask(c)));
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }

  private async pump(lines: AsyncIterator<string>): Promise<void> {
    for (let r = await lines.next(); !r.done; r = await lines.next()) this.waiting.shift()?.line(r.value);
  }
}
