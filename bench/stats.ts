/** Timing helpers for benchmarks: percentiles over repeated runs, peak memory, results file. */
import { readFileSync, writeFileSync } from 'node:fs';

export interface Timing {
  runs: number;
  p50_us: number;
  p99_us: number;
  mean_us: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** Runs `fn` `warmup` times, then `runs` times, and returns microsecond percentiles. */
export async function time(fn: () => unknown, runs: number, warmup = Math.ceil(runs / 5)): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((s, x) => s + x, 0) / samples.length;
  return {
    runs,
    p50_us: round(percentile(samples, 50)),
    p99_us: round(percentile(samples, 99)),
    mean_us: round(mean),
  };
}

/** The median of unsorted `xs`, rounded to 0.1. */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return round(percentile(sorted, 50));
}

export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function mib(bytes: number): number {
  return round(bytes / 1024 / 1024);
}

const RESULTS = new URL('./results.json', import.meta.url);

/** Merges one section into bench/results.json (other sections are kept). */
/** One section of bench/results.json as last written, or undefined. */
export function readSection(name: string): unknown {
  try {
    return JSON.parse(readFileSync(RESULTS, 'utf8'))[name];
  } catch {
    return undefined;
  }
}

export function writeSection(name: string, data: unknown): void {
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(readFileSync(RESULTS, 'utf8'));
  } catch {
    // first run: no results yet
  }
  all[name] = data;
  all._machine = { node: process.version, cpus: 2, measured_at: new Date().toISOString() };
  writeFileSync(RESULTS, `${JSON.stringify(all, null, 2)}\n`);
}
