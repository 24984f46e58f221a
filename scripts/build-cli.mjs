// Bundles the placid CLI into ESM so `npx placid` starts without transpiling TypeScript. Code
// splitting keeps each command's dynamic imports (lib/cli/*.ts) in chunks of their own, so
// `placid --help` loads only the command tree and a command loads only what it uses.
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: { placid: 'bin/placid.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
