/**
 * Progress of a simulation on stderr, with an estimate of the time left in the run: a bar redrawn
 * in place on a terminal, otherwise a plain line every few seconds (logs and CI stay readable).
 */
import type { SimulationProgress } from './simulate.js';

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const LABEL: Record<SimulationProgress['run'], string> = {
  baseline: 'without Placid',
  placid: 'with Placid',
};
const REDRAW_MS = 100;
const LINE_EVERY_MS = 2_000;

export function progressReporter(
  stream: ProgressStream,
  now: () => number = () => performance.now(),
): {
  update(p: SimulationProgress): void;
  done(): void;
} {
  let lastDraw = Number.NEGATIVE_INFINITY;
  // Where the run was first seen: the rate is measured from there (the first minute's own time is unknown).
  let run: { name: SimulationProgress['run']; t: number; minute: number } | undefined;
  let drawn = false;
  return {
    update(p) {
      const t = now();
      if (run?.name !== p.run) {
        run = { name: p.run, t, minute: p.minute };
        if (!stream.isTTY) lastDraw = t; // a line once there is a rate to estimate from
      }
      const last = p.minute >= p.minutes;
      if (t - lastDraw < (stream.isTTY ? REDRAW_MS : LINE_EVERY_MS) && !last) return;
      lastDraw = t;
      const done = p.minute - run.minute;
      const left = last
        ? 'done'
        : done > 0
          ? timeLeft((t - run.t) / done, p.minutes - p.minute)
          : 'estimating the time left';
      if (stream.isTTY) {
        const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 62));
        const full = Math.round((p.minute / p.minutes) * width);
        stream.write(
          `\r\x1b[2K  ${LABEL[p.run].padEnd(14)} [${'#'.repeat(full)}${'.'.repeat(width - full)}] ${p.minute}/${p.minutes} min, ${left}`,
        );
        drawn = true;
        return;
      }
      stream.write(`placid simulate: ${LABEL[p.run]}: ${p.minute}/${p.minutes} simulated minutes, ${left}\n`);
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

/** "about 40 s left" (in this run), from the wall time each simulated minute has taken so far. */
function timeLeft(msPerMinute: number, minutesLeft: number): string {
  const seconds = Math.max(1, Math.round((msPerMinute * minutesLeft) / 1000));
  return seconds < 90 ? `about ${seconds} s left` : `about ${Math.round(seconds / 60)} min left`;
}
