#!/usr/bin/env node
// The `placid` command: runs the bundled CLI (built by `npm ci` / `npm run build`).
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/placid.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write('placid: the CLI is not built yet; run `npm run build` (npm ci does it for you)\n');
  process.exit(2);
}
await import(bundle.href);
