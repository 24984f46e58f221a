// Bundles the placid CLI into ESM so `npx placid` starts without transpiling TypeScript. Code
// splitting keeps each command's dynamic imports (lib/cli/*.ts) in chunks of their own, so
// `placid --help` loads only the command tree and a command loads only what it uses.
// Then emits the migration state machine's definition (dist/workflow-definition.json), which the
// local runner loads: CDK synthesizes it here, once per build, never at run time.
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tsImport } from 'tsx/esm/api';

await rm('dist', { recursive: true, force: true });
await build({
  // The serve detector's worker thread loads a bundle of its own (lib/cli/serveDetectorThread.ts).
  entryPoints: { placid: 'bin/placid.ts', 'serve-detector-worker': 'bin/serveDetectorWorker.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Every package stays external but zod: bundled, the CLI reads it from one chunk instead of
  // resolving and loading some forty files at each start.
  plugins: [externalExcept('zod')],
  sourcemap: 'linked',
  logLevel: 'warning',
});
/** Leaves every package import external except `bundled` (and its subpaths). */
function externalExcept(bundled) {
  return {
    name: 'external-except',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path === bundled || args.path.startsWith(`${bundled}/`)
          ? undefined
          : { path: args.path, external: true },
      );
    },
  };
}

const { emitWorkflowDefinition } = await tsImport('../lib/infra/workflowAsl.ts', import.meta.url);
emitWorkflowDefinition(fileURLToPath(new URL('..', import.meta.url)));
