// Bundles the placid CLI into one ESM file so `npx placid` starts without transpiling TypeScript.
import { build } from 'esbuild';

await build({
  entryPoints: ['bin/placid.ts'],
  outfile: 'dist/placid.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
