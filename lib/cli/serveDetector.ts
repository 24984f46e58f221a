/**
 * The detector loop `placid serve` runs beside its decision API: every interval the same rounds
 * `placid detect` runs (lib/cli/detectRounds.ts), so queued plans execute through the local state
 * machine and land in the store. The rounds run in a worker thread (serveDetectorThread.ts), off
 * the thread that answers requests. Runs never overlap; stopping waits for the run in progress.
 */

import { parseDuration } from '../collect/durationText.js';
import { InputError } from './errors.js';
import { terminalSafe } from './format.js';
import type { ServeExtension } from './serve.js';
import type { WorkflowFiles } from './workflowOptions.js';

const DEFAULT_DETECT_EVERY_MS = 60_000;

export interface ServeDetectorOptions extends WorkflowFiles {
  everyMs: number;
  /** nova.conf / JSON with a [rebalance] section (mode, thresholds...). */
  config?: string;
}

/** Parses `--detect-every`: a duration of at least one second. */
export function parseDetectEvery(text: string | undefined): number {
  if (text === undefined) return DEFAULT_DETECT_EVERY_MS;
  const ms = parseDuration(text);
  if (ms === undefined || ms < 1000) {
    throw new InputError(`--detect-every ${text}: must be a duration of at least 1s, e.g. 30s or 5m`);
  }
  return ms;
}

export function serveDetector(options: ServeDetectorOptions): ServeExtension {
  return {
    name: 'detector',
    start: async ({ dynamo, io }) => {
      const [{ readPlanConfig }, { startDetectorThread }] = await Promise.all([
        import('./planConfig.js'),
        import('./serveDetectorThread.js'),
      ]);
      // Read once here too: a bad config fails `placid serve` at once, with the error's own type.
      await readPlanConfig(options.config);
      const startThread = () =>
        startDetectorThread({
          endpoint: dynamo.endpoint,
          tableNames: dynamo.tableNames,
          config: options.config,
          endpoints: options.endpoints,
          settings: options.settings,
          template: options.template,
        });
      let thread = await startThread();
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<void> = Promise.resolve();
      const runOnce = async (): Promise<void> => {
        try {
          // A thread that died (an uncaught error in it) is replaced, as a crashed Lambda would be.
          if (!thread.alive) thread = await startThread();
          const { lines, error } = await thread.run();
          const shown = lines.filter((l) => !l.startsWith('no new plan'));
          if (shown.length > 0)
            io.stdout.write(terminalSafe(shown.map((l) => `placid serve: detect: ${l}\n`).join('')));
          if (error !== undefined) throw new Error(error);
        } catch (error) {
          // One failed run must not stop the loop: the next minute tries again, as the cloud's schedule does.
          io.stderr.write(terminalSafe(`placid serve: detect failed: ${errorText(error)}\n`));
        }
      };
      const tick = (): void => {
        running = runOnce().then(() => {
          if (!stopped) timer = setTimeout(tick, options.everyMs);
        });
      };
      tick();
      return {
        stop: async () => {
          stopped = true;
          clearTimeout(timer);
          await running;
          await thread.close();
        },
      };
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
