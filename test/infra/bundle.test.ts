import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bundle, loadBundle, synthBundles } from '../../bench/bundle.js';

// The one test that runs esbuild for real (every other infra test skips bundling).
describe('function bundles', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'placid-bundles-'));
  let bundles: Bundle[];
  beforeAll(() => {
    bundles = synthBundles(outdir);
  }, 180_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('bundles every function of the stack', () => {
    expect(bundles.map((b) => b.path).sort()).toEqual([
      'Placid/Detect/Function',
      'Placid/Ingest/Function',
      'Placid/Schedule/HttpFunction',
      'Placid/Schedule/QueueFunction',
      'Placid/Workflow/PlanStarterFunction',
      'Placid/Workflow/StepsFunction',
    ]);
  });

  it('keeps every bundle within the 1 MiB target', () => {
    const over = bundles.filter((b) => b.bytes > 1024 * 1024).map((b) => `${b.path}: ${b.bytes} bytes`);
    expect(over).toEqual([]);
  });

  it('leaves every driver out of the workflow steps: the on-premises steps run on the agents', () => {
    const steps = bundles.find((b) => b.path === 'Placid/Workflow/StepsFunction')!;
    const code = readFileSync(join(steps.assetDir, 'index.mjs'), 'utf8');
    expect(code).not.toContain('@kubernetes/client-node');
    expect(code).not.toContain('os-migrateLive');
    expect(code).not.toContain('/v1/agent/maintenance');
  });

  it('writes minified ESM with the require shim and a source map next to it', () => {
    for (const bundle of bundles) {
      const head = readFileSync(join(bundle.assetDir, 'index.mjs'), 'utf8').slice(0, 200);
      expect(head, bundle.path).toContain('createRequire(import.meta.url)');
      expect(bundle.mapBytes, bundle.path).toBeGreaterThan(0);
    }
  });

  it('loads each bundle outside the repository with only the environment the stack sets', async () => {
    const loaded = await Promise.all(bundles.map(loadBundle));
    expect(loaded.map((l) => l.handlerType)).toEqual(bundles.map(() => 'function'));
  }, 60_000);
});
