/**
 * Bundle size of each Lambda (target ≤ 1 MiB) and the local import time of each bundle: a fresh
 * `node` imports it with the function's own environment, as a cold start would (init only; no
 * invocation, no network), NODE_OPTIONS=--enable-source-maps included as on Lambda. Local Node 20 on
 * this machine, not Lambda's arm64 Node 24.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBundle, synthBundles } from '../lib/infra/bundles.js';
import { round } from './stats.js';

const TARGET_BYTES = 1024 * 1024;
const IMPORT_RUNS = 5;

export async function benchBundles(): Promise<unknown> {
  const outdir = mkdtempSync(join(tmpdir(), 'placid-bench-bundles-'));
  try {
    const started = performance.now();
    const bundles = synthBundles(outdir);
    const synthMs = performance.now() - started;
    const functions: Record<string, unknown> = {};
    for (const bundle of bundles) {
      const times: number[] = [];
      for (let i = 0; i < IMPORT_RUNS; i++) times.push((await loadBundle(bundle)).importMs);
      times.sort((a, b) => a - b);
      functions[bundle.path] = {
        bytes: bundle.bytes,
        kib: round(bundle.bytes / 1024),
        within_target: bundle.bytes <= TARGET_BYTES,
        source_map_bytes: bundle.mapBytes,
        import_ms_p50: round(times[Math.floor(times.length / 2)]),
        import_ms_min: round(times[0]),
        import_runs: IMPORT_RUNS,
      };
      process.stdout.write(
        `${bundle.path}: ${round(bundle.bytes / 1024)} KiB, import p50 ${round(times[Math.floor(times.length / 2)])} ms\n`,
      );
    }
    // Import times scale with machine load; record it next to them.
    return {
      target_bytes: TARGET_BYTES,
      synth_with_bundling_ms: Math.round(synthMs),
      load_average_1m: round(loadavg()[0]),
      functions,
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
