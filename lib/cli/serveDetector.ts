/**
 * The detector loop `placid serve` runs beside its decision API: every interval the same rounds
 * `placid detect` runs (lib/cli/detectRounds.ts), so queued plans execute through the local state
 * machine and land in the store. Runs never overlap; stopping waits for the run in progress.
 */
import { parseDuration } from '../collect/durationText.js';
import { systemClock } from '../model/clock.js';
import { InputError } from './errors.js';
import { terminalSafe } from './format.js';
import type { ServeExtension } from './serve.js';

const DEFAULT_DETECT_EVERY_MS = 60_000;

export interface ServeDetectorOptions {
  everyMs: number;
  /** nova.conf / JSON with a [rebalance] section (mode, thresholds...). */
  config?: string;
  /** Real drivers from this endpoints file (as `placid detect --endpoints`); simulated otherwise. */
  endpoints?: string;
  settings?: string;
  template?: string;
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
    start: async ({ store, dynamo, io }) => {
      const [{ detectRounds, describeRound }, { readPlanConfig }] = await Promise.all([
        import('./detectRounds.js'),
        import('./planConfig.js'),
      ]);
      // Read once at start: a bad config fails `placid serve` at once, not a minute later.
      const plan = await readPlanConfig(options.config);
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<void> = Promise.resolve();
      const runOnce = async (): Promise<void> => {
        try {
          const rounds = await detectRounds({
            store,
            dynamo,
            plan,
            clock: systemClock,
            endpoints: options.endpoints,
            settings: options.settings,
            template: options.template,
          });
          const lines = rounds.flatMap(describeRound).filter((l) => !l.startsWith('no new plan'));
          if (lines.length > 0)
            io.stdout.write(terminalSafe(lines.map((l) => `placid serve: detect: ${l}\n`).join('')));
        } catch (error) {
          // One failed run must not stop the loop: the next minute tries again, as the cloud's schedule does.
          io.stderr.write(terminalSafe(`placid serve: detect failed: ${String(error)}\n`));
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
        },
      };
    },
  };
}
