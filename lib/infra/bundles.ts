/**
 * Real bundles of the stack's functions, for the bundle test and `npm run bench bundles`: synthesise
 * with esbuild into a directory, then load each bundle in a fresh Node process, outside the
 * repository (so nothing resolves from its node_modules), with only the environment the stack sets.
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { FAKE_ACCOUNT, FAKE_REGION, functionsOf, type SynthFunction } from './functionsOf.js';
import { PlacidStack } from './placidStack.js';
import { PROJECT_ROOT } from './serviceFunction.js';

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
