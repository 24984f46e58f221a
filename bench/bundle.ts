/**
 * Bundle size of each Lambda (target ≤ 1 MiB) and the local import time of each bundle: a fresh
 * `node` imports it with the function's own environment, as a cold start would (init only; no
 * invocation, no network), NODE_OPTIONS=--enable-source-maps included as on Lambda. Local Node 20 on
 * this machine, not Lambda's arm64 Node 24. `synthBundles` and `loadBundle` also serve the bundle test.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { FAKE_ACCOUNT, FAKE_REGION, functionsOf, type SynthFunction } from '../lib/infra/functionsOf.js';
import { PlacidStack } from '../lib/infra/placidStack.js';
import { PROJECT_ROOT } from '../lib/infra/serviceFunction.js';
import { round } from './stats.js';

/** The context of cdk.json (feature flags), so a test synth matches `cdk synth`. */
export function cdkJsonContext(): Record<string, unknown> {
  return JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')).context;
}

export interface Bundle extends SynthFunction {
  assetDir: string;
  /** The bundle (index.mjs) and its source map, in bytes. */
  bytes: number;
  mapBytes: number;
}

/** Synthesises the stack into `outdir` with real bundling; one entry per function. */
export function synthBundles(outdir: string): Bundle[] {
  const app = new App({
    outdir,
    builtinCloudFormationValidation: false,
    context: {
      ...cdkJsonContext(),
      'aws:cdk:enable-asset-metadata': true,
      'aws:cdk:enable-path-metadata': true,
    },
  });
  const stack = new PlacidStack(app, 'Placid', { env: { account: FAKE_ACCOUNT, region: FAKE_REGION } });
  const assembly = app.synth();
  return functionsOf(assembly.getStackArtifact(stack.artifactId).template, assembly.directory).map((fn) => {
    if (!fn.assetDir) throw new Error(`${fn.path}: no bundle directory in the assembly`);
    return {
      ...fn,
      assetDir: fn.assetDir,
      bytes: statSync(join(fn.assetDir, 'index.mjs')).size,
      mapBytes: statSync(join(fn.assetDir, 'index.mjs.map')).size,
    };
  });
}

export interface LoadResult {
  /** Milliseconds to import the bundle (module evaluation included), measured in the child. */
  importMs: number;
  /** Type of the `handler` export. */
  handlerType: string;
}

// Runs in the child: imports the bundle and reports how long that took and what `handler` is.
const LOADER = `const t0 = performance.now();
const m = await import(process.argv[1]);
process.stdout.write(JSON.stringify({ importMs: performance.now() - t0, handlerType: typeof m.handler }));`;

/**
 * Imports a bundle in a fresh `node`, as a cold start would: the function's environment (including
 * NODE_OPTIONS=--enable-source-maps), plus what the Lambda runtime itself sets.
 */
export async function loadBundle(bundle: Bundle): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', LOADER, pathToFileURL(join(bundle.assetDir, 'index.mjs')).href],
    {
      cwd: bundle.assetDir,
      env: {
        PATH: process.env.PATH,
        AWS_REGION: FAKE_REGION,
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        POWERTOOLS_DEV: 'true',
        ...bundle.environment,
      },
    },
  );
  return JSON.parse(stdout) as LoadResult;
}

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
