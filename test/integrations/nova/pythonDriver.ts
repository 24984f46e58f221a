/**
 * One long-lived Debian python3 running test/integrations/nova/plugin_driver.py (importing Nova
 * takes seconds, so every case of a test file goes through the same process, one JSON line each).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
/** Debian's interpreter: another python3 first on the PATH has no `nova` module. */
export const PYTHON = '/usr/bin/python3';

/** Credentials botocore's chain finds first (the environment), for the signing case. */
export const FAKE_AWS_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'AKIDPLACIDTEST',
  AWS_SECRET_ACCESS_KEY: 'placid-test-secret',
  AWS_CONFIG_FILE: '/dev/null',
  AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
};

export interface DriverAnswer {
  id: number;
  /** Hosts through the filters for the first instance (of the last placement, with `repeat`). */
  passed: [string, string][];
  /** The first instance's weighed hosts, best first, with Nova's final weight. */
  order: [string, string, number][];
  selected: [string, string][];
  /** placid_nova.stats after the case: counters, and `breaker` (closed, open, half_open). */
  stats: Record<string, number> & { breaker: string };
  /** Wall seconds of each placement (filters + weighers through Nova's handlers). */
  elapsed: number[];
  /** The plug-in's log lines for this case (`WARNING …`, `INFO …`). */
  log: string[];
  error?: string;
}

export class PluginDriver {
  private readonly pending: ((line: string) => void)[] = [];
  private stderr = '';
  private nextId = 1;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {}

  /** `eventlet`: monkey-patched first, as nova-scheduler is (nova/cmd imports nova.monkey_patch). */
  static async start(options: { eventlet?: boolean } = {}): Promise<PluginDriver> {
    if (!existsSync(PYTHON))
      throw new Error(`${PYTHON} is missing: the Nova plug-in tests need Debian's python3`);
    const child = spawn(PYTHON, [join(here, 'plugin_driver.py')], {
      env: {
        ...process.env,
        // Another copy of the plug-in (an older one, to see a test fail without its fix).
        PYTHONPATH: process.env.PLACID_NOVA_PYTHONPATH ?? join(root, 'integrations/nova'),
        PYTHONDONTWRITEBYTECODE: '1',
        // Only read when a case sets [placid] region (the SigV4 case); never sent anywhere else.
        ...FAKE_AWS_CREDENTIALS,
        ...(options.eventlet ? { PLACID_DRIVER_EVENTLET: '1' } : {}),
      },
    });
    const driver = new PluginDriver(child);
    child.stderr.on('data', (chunk) => {
      driver.stderr += String(chunk);
    });
    createInterface({ input: child.stdout }).on('line', (line) => driver.pending.shift()?.(line));
    const ready = await driver.nextLine();
    if (!ready.includes('"ready"')) throw new Error(`plugin driver did not start: ${ready}`);
    return driver;
  }

  async run(c: Record<string, unknown>): Promise<DriverAnswer> {
    const id = this.nextId++;
    const line = this.nextLine();
    this.child.stdin.write(`${JSON.stringify({ ...c, id })}\n`);
    const answer = JSON.parse(await line) as DriverAnswer;
    if (answer.error) throw new Error(`plugin driver: ${answer.error}\n${this.stderr}`);
    return answer;
  }

  close(): void {
    this.child.stdin.end();
  }

  private nextLine(): Promise<string> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`plugin driver exited (${code}): ${this.stderr.slice(-2000)}`));
      this.child.once('exit', onExit);
      this.pending.push((line) => {
        this.child.off('exit', onExit);
        resolve(line);
      });
    });
  }
}
