/**
 * What one run measures, minute by minute: VM-minutes in steal and suffering, the steal
 * distribution (p95 and max over every VM-minute), and per time bucket the heat map (mean VM steal
 * per host) and the series. Percentiles come from histograms of 0.01 % steal bins, so they are
 * exact to that resolution without keeping every VM-minute.
 */
import type { SeriesPoint } from './result.js';
import type { World } from './world.js';

const BINS = 10_001;

export interface StealTotals {
  vm_minutes_in_steal: number;
  suffering_vm_minutes: number;
  p95_steal_percent: number;
  max_steal_percent: number;
}

export interface RunMeasurements {
  totals: StealTotals;
  /** Mean VM steal per host per bucket ([host][bucket]). */
  heat: number[][];
  series: SeriesPoint[];
}

export interface MinuteActivity {
  migrationsRunning: number;
  bandwidthMbps: number;
}

export class RunRecorder {
  private readonly all = new Uint32Array(BINS);
  private readonly bucket = new Uint32Array(BINS);
  private inSteal = 0;
  private suffering = 0;
  private max = 0;
  private readonly heatSum: Float64Array[];
  private readonly heatCount: Float64Array[];
  private readonly series: SeriesPoint[] = [];
  private current = { index: -1, at: '', stealSum: 0, n: 0, suffering: 0, migrations: 0, bandwidth: 0 };

  constructor(
    private readonly world: World,
    private readonly start: Date,
    private readonly bucketMinutes: number,
    buckets: number,
    private readonly thresholds: { steal: number; load5PerVcpu: number },
  ) {
    this.heatSum = Array.from({ length: world.hostCount }, () => new Float64Array(buckets));
    this.heatCount = Array.from({ length: world.hostCount }, () => new Float64Array(buckets));
  }

  /** Records minute `m` as the world stepped it. */
  record(m: number, activity: MinuteActivity): void {
    const b = Math.floor(m / this.bucketMinutes);
    if (b !== this.current.index) this.startBucket(b, m);
    const w = this.world;
    let sufferingNow = 0;
    for (let i = 0; i < w.vmCount; i++) {
      const steal = w.steal[i];
      const bin = Math.min(BINS - 1, Math.round(steal * 100));
      this.all[bin]++;
      this.bucket[bin]++;
      if (steal > this.max) this.max = steal;
      if (steal > this.thresholds.steal) {
        this.inSteal++;
        if (w.load5[i] / w.vcpusOf(i) > this.thresholds.load5PerVcpu) sufferingNow++;
      }
      const h = w.hostOf[i];
      this.heatSum[h][b] += steal;
      this.heatCount[h][b]++;
      this.current.stealSum += steal;
    }
    this.suffering += sufferingNow;
    this.current.n += w.vmCount;
    this.current.suffering = Math.max(this.current.suffering, sufferingNow);
    this.current.migrations = Math.max(this.current.migrations, activity.migrationsRunning);
    this.current.bandwidth = Math.max(this.current.bandwidth, activity.bandwidthMbps);
  }

  finish(): RunMeasurements {
    this.closeBucket();
    const heat = this.heatSum.map((sums, h) =>
      Array.from(sums, (s, b) => round(this.heatCount[h][b] > 0 ? s / this.heatCount[h][b] : 0)),
    );
    return {
      totals: {
        vm_minutes_in_steal: this.inSteal,
        suffering_vm_minutes: this.suffering,
        p95_steal_percent: percentile(this.all, 0.95),
        max_steal_percent: round(this.max),
      },
      heat,
      series: this.series,
    };
  }

  private startBucket(b: number, m: number): void {
    this.closeBucket();
    const at = new Date(this.start.getTime() + m * 60_000).toISOString();
    this.current = { index: b, at, stealSum: 0, n: 0, suffering: 0, migrations: 0, bandwidth: 0 };
  }

  private closeBucket(): void {
    const c = this.current;
    if (c.index < 0) return;
    this.series.push({
      at: c.at,
      p95_steal_percent: percentile(this.bucket, 0.95),
      mean_steal_percent: round(c.n > 0 ? c.stealSum / c.n : 0),
      suffering_vms: c.suffering,
      migrations_running: c.migrations,
      bandwidth_mbps: Math.round(c.bandwidth),
    });
    this.bucket.fill(0);
    c.index = -1;
  }
}

/** The q-quantile of a 0.01 %-bin histogram, in percent. */
function percentile(histogram: Uint32Array, q: number): number {
  let total = 0;
  for (const n of histogram) total += n;
  if (total === 0) return 0;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let bin = 0; bin < histogram.length; bin++) {
    seen += histogram[bin];
    if (seen >= rank) return bin / 100;
  }
  return (histogram.length - 1) / 100;
}

export const round = (v: number) => Math.round(v * 100) / 100;
