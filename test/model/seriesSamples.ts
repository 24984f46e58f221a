import type { InstanceSample } from '../../lib/model/reports.js';
import {
  type SampleSeries,
  SERIES_CPU,
  SERIES_LOAD5,
  SERIES_MS,
  SERIES_STEAL,
  SERIES_STRIDE,
} from '../../lib/model/sampleSeries.js';

/** A series back as sample objects, for comparing what a reader gives with what was written. */
export function samplesOf(series: SampleSeries): InstanceSample[] {
  const out: InstanceSample[] = [];
  for (let i = series.start; i < series.end; i++) {
    const at = i * SERIES_STRIDE;
    out.push({
      ts: new Date(series.data[at + SERIES_MS]).toISOString(),
      steal_percent: series.data[at + SERIES_STEAL],
      cpu_percent: series.data[at + SERIES_CPU],
      load5: series.data[at + SERIES_LOAD5],
    });
  }
  return out;
}
