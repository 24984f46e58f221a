#!/usr/bin/env node
// The `placid` command: runs the bundled CLI (built by `npm ci` / `npm run build`).
import { existsSync } from 'node:fs';
import module from 'node:module';

const bundle = new URL('../dist/placid.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write('placid: the CLI is not built yet; run `npm run build` (npm ci does it for you)\n');
  process.exit(2);
}
// Node 22.1+ keeps the bundle's compiled code between runs (in the OS temp folder; set
// NODE_DISABLE_COMPILE_CACHE=1 to turn it off). Node 20 has no such cache: the call is skipped.
module.enableCompileCache?.();
await import(bundle.href);
