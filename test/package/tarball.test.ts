/**
 * What `npm pack` puts in the tarball that `npm install -g` installs: the built CLI (no build step
 * on the operator's machine), and runtime dependencies that cover every package dist/ imports and
 * nothing that only builds or deploys (CDK, esbuild, tsx). docs/deploy.md has the install as run.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCli, root } from '../helpers/builtCli.js';

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The bare package names dist/'s JavaScript imports or requires (static and dynamic). */
function importedPackages(dir: string): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      for (const n of importedPackages(path)) names.add(n);
      continue;
    }
    if (!/\.[cm]js$/.test(entry)) continue;
    const code = readFileSync(path, 'utf8');
    const statics = code.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*["']([^"'./][^"']*)["']/gm);
    const dynamics = code.matchAll(/\bimport\(\s*["']([^"'./][^"']*)["']\s*\)/g);
    const required = code.matchAll(/\brequire\(\s*["']([^"'./][^"']*)["']\s*\)/g);
    // The CLI bundle's ES imports of packages (lib/config/importModule.ts).
    const esImports = code.matchAll(/\bimportModule\d*(?:<[^>]*>)?\(\s*["']([^"'./][^"']*)["']\s*\)/g);
    for (const m of [...statics, ...dynamics, ...required, ...esImports]) {
      const spec = m[1];
      if (spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0])) continue;
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  }
  return names;
}

describe('the npm tarball', () => {
  let files: string[];
  beforeAll(() => {
    buildCli();
    const packed = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    files = JSON.parse(packed)[0].files.map((f: { path: string }) => f.path);
  }, 120_000);

  it('holds the built CLI, its worker, the workflow definition and the examples, and no sources', () => {
    for (const path of [
      'bin/placid.cjs',
      'bin/compileCache.cjs',
      'dist/placid.cjs',
      'dist/serve-detector-worker.mjs',
      'dist/workflow-definition.json',
      'examples/systemd/placid-agent.service',
      'examples/systemd/agent.yaml',
      'examples/systemd/collect.yaml',
      'examples/reports/fleet.json',
    ]) {
      expect(files, path).toContain(path);
    }
    expect(files.filter((f) => /^(lib|test|functions|bench|scripts)\//.test(f))).toEqual([]);
  });

  it('depends at run time on exactly what dist/ imports (tsx only for TypeScript plug-ins)', () => {
    const runtime = Object.keys(manifest.dependencies).sort();
    const imported = [...importedPackages(join(root, 'dist'))].filter((n) => n !== 'tsx');
    expect(runtime).toEqual([...new Set(imported)].sort());
    // Bundled into dist/placid.cjs: zod, commander, @middy/core (scripts/build-cli.mjs).
    for (const tool of [
      'aws-cdk-lib',
      'constructs',
      'esbuild',
      'tsx',
      'typescript',
      'aws-cdk',
      'zod',
      'commander',
    ])
      expect(runtime, tool).not.toContain(tool);
  });
});
