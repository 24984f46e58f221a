#!/usr/bin/env node
// The `placid` command: runs the bundled CLI (built by `npm ci` / `npm run build`), with its
// compiled code kept between runs (bin/compileCache.cjs; NODE_DISABLE_COMPILE_CACHE=1 turns it off).
'use strict';
const { existsSync } = require('node:fs');
const module_ = require('node:module');
const { join } = require('node:path');

const bundle = join(__dirname, '..', 'dist', 'placid.cjs');
if (!existsSync(bundle)) {
  process.stderr.write('placid: the CLI is not built yet; run `npm run build` (npm ci does it for you)\n');
  process.exit(2);
}
// Node 22.1+ also keeps the code of what it loads itself (the AWS SDK and the other packages a
// command requires, the serve detector's worker); Node 20 has no such cache and skips the call.
module_.enableCompileCache?.();
require('./compileCache.cjs').runCached(bundle, process.argv[2]);
