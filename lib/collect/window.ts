/** The steps a run samples: aligned to the step, so overlapping runs produce the same timestamps. */
import type { CollectConfig } from './config.js';
import type { TimeRange } from './ports.js';

export interface SampleWindow extends TimeRange {
  /** Every step, in epoch ms, oldest first. */
  grid: number[];
}

export function sampleWindow(config: CollectConfig, now: Date): SampleWindow {
  const step = config.collect.step;
  const end = Math.floor(now.getTime() / step) * step;
  const start = end - config.collect.window + step;
  const grid: number[] = [];
  for (let t = start; t <= end; t += step) grid.push(t);
  return { start: new Date(start), end: new Date(end), stepSeconds: step / 1000, grid };
}
