// Bundles the placid CLI into one CommonJS file, dist/placid.cjs, so `npx placid` starts without
// transpiling TypeScript. bin/placid.cjs runs it with V8's code cache kept between runs
// (bin/compileCache.cjs), which only a script, not an ES module, can take on Node 20. The file
// holds every command; each command's modules (the dynamic imports of lib/cli/main.ts) are
// initialized only when that command runs, and a cached run compiles none of the others.
// The serve detector's worker thread loads a bundle of its own (lib/cli/serveDetectorThread.ts).
// Then emits the migration state machine's definition (dist/workflow-definition.json), which the
// local runner loads: CDK synthesizes it here, once per build, never at run time.
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tsImport } from 'tsx/esm/api';

const common = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Every package stays external but these. zod and commander (with its typings): bundled, they
  // are read from one file, with the code cache, instead of resolving and compiling some forty
  // files at each start. @middy/core: an ES module only, whose default export a CommonJS bundle
  // cannot take from `require` on Node 20.
  plugins: [externalExcept(['zod', 'commander', '@commander-js/extra-typings', '@middy/core'])],
  sourcemap: 'linked',
  logLevel: 'warning',
};

await rm('dist', { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { placid: 'bin/placid.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // Code run from V8's cache cannot call import() on Node 20 (bin/compileCache.cjs): a package's
  // import() becomes require(), and what must be an ES import goes through importModule().
  supported: { 'dynamic-import': false },
  // Modules that find files beside themselves read import.meta.url, which CommonJS lacks.
  define: { 'import.meta.url': '__placidModuleUrl' },
  banner: { js: 'const __placidModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
});
// The loader reads the bundle as Latin-1, a third of the time UTF-8 takes (bin/compileCache.cjs):
// esbuild escapes what is not ASCII in code, and here in the comments it keeps. The last line
// names the content, so the code cache is keyed without hashing 1.4 MB at each start.
const cli = (await readFile('dist/placid.cjs', 'utf8')).replace(
  /[\u0080-\uffff]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
);
await writeFile(
  'dist/placid.cjs',
  `${cli}// placid-build ${createHash('sha256').update(cli).digest('hex')}\n`,
);
await build({
  ...common,
  entryPoints: { 'serve-detector-worker': 'bin/serveDetectorWorker.ts' },
  outExtension: { '.js': '.mjs' },
  format: 'esm',
});
/** Leaves every package import external except those in `bundled` (and their subpaths). */
function externalExcept(bundled) {
  const inside = (path) => bundled.some((name) => path === name || path.startsWith(`${name}/`));
  return {
    name: 'external-except',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) =>
        inside(args.path) ? undefined : { path: args.path, external: true },
      );
    },
  };
}

const { emitWorkflowDefinition } = await tsImport('../lib/infra/workflowAsl.ts', import.meta.url);
emitWorkflowDefinition(fileURLToPath(new URL('..', import.meta.url)));
