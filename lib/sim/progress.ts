/**
 * Progress of a simulation on stderr: a bar redrawn in place on a terminal, otherwise a plain line
 * every tenth of each run (logs and CI stay readable).
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

export function progressReporter(stream: ProgressStream): {
  update(p: SimulationProgress): void;
  done(): void;
} {
  let lastDraw = 0;
  let lastTenth = -1;
  let drawn = false;
  return {
    update(p) {
      const share = p.minute / p.minutes;
      if (stream.isTTY) {
        const now = Date.now();
        if (now - lastDraw < REDRAW_MS && p.minute < p.minutes) return;
        lastDraw = now;
        const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 50));
        const full = Math.round(share * width);
        stream.write(
          `\r\x1b[2K  ${LABEL[p.run].padEnd(14)} [${'#'.repeat(full)}${'.'.repeat(width - full)}] ${p.minute}/${p.minutes} min`,
        );
        drawn = true;
        return;
      }
      const tenth = Math.floor(share * 10);
      if (tenth === lastTenth && p.minute < p.minutes) return;
      lastTenth = p.minute >= p.minutes ? -1 : tenth;
      stream.write(`placid simulate: ${LABEL[p.run]}: ${p.minute}/${p.minutes} simulated minutes\n`);
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
