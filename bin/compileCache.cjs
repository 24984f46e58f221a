// Runs a CommonJS bundle with V8's code cache kept between runs, as Node 22's
// module.enableCompileCache() does for modules it loads itself (Node 20 has no such cache, and
// Node's does not cover code compiled through `vm`, so this one serves the bundle on every Node;
// bin/placid.cjs turns Node's on too, for the packages the bundle requires). Without it
// each `placid` run parses and compiles the bundle's code again: about 50 ms of CPU for
// `placid schedule`, as much as validating 5,000 hosts.
//
// The cache is written when a run without one exits, so it holds the code that run compiled
// (later runs compile what it did not need when they need it); one file per command, since
// `placid --help` and `placid schedule` run different code. A cache is keyed by the bundle's
// content, the Node build and the Node options, so a rebuilt bundle or another Node never reads
// another's code. V8 checks the rest (its version and flags) and rejects a cache that does not
// match; the run then compiles as usual and writes a new one. Nothing here can fail a run: a
// cache that cannot be read or written only costs the compile.
'use strict';
const {
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const Module = require('node:module');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

/**
 * CommonJS's module wrapper plus `__placidImport`. On Node 20, code V8 took from a cache cannot
 * call `import()` (its callback is not found), so the bundle has none (scripts/build-cli.mjs) and
 * imports through this function, compiled by Node's own loader (lib/config/importModule.ts).
 */
const WRAPPER = '(function (exports, require, module, __filename, __dirname, __placidImport) { ';
const nativeImport = (specifier) => import(specifier);

/** Caches unused this long are removed when a new cache is written. */
const STALE_MS = 30 * 86_400_000;

/**
 * Where caches go: `$NODE_COMPILE_CACHE/placid` when the operator has chosen a folder for Node's
 * own cache, else one folder per user in the OS temp folder. `null` when NODE_DISABLE_COMPILE_CACHE
 * is set, as for Node's.
 */
function cacheFolder(env = process.env) {
  if (env.NODE_DISABLE_COMPILE_CACHE) return null;
  if (env.NODE_COMPILE_CACHE) return join(env.NODE_COMPILE_CACHE, 'placid');
  return join(tmpdir(), `placid-compile-cache-${process.getuid?.() ?? 'user'}`);
}

/**
 * A cache is code this process will run, so it is read from and written to a folder only when
 * this user owns it and no one else can write to it: in a shared /tmp another user could make the
 * folder first and leave code in it.
 */
function trusted(folder) {
  try {
    const stat = statSync(folder);
    const ours = process.getuid === undefined || stat.uid === process.getuid();
    return stat.isDirectory() && ours && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * The cache's file name: the bundle's build stamp (its last line, a hash of its content written by
 * the build) and the Node build, then the command word when it is one. No stamp, no cache.
 */
function cacheName(source, command) {
  const stamp = /\/\/ placid-build ([0-9a-f]{64})\n$/.exec(source.slice(-90))?.[1];
  if (!stamp) return null;
  const word = /^[a-z][a-z0-9-]{0,39}$/.test(command ?? '') ? command : 'other';
  return `${stamp.slice(0, 32)}-node${process.version}-${process.arch}${flagsTag()}-${word}.v8cache`;
}

/**
 * Node options can change V8's flags, and V8 rejects a cache made under other flags: a run with
 * options keeps its own cache (FNV-1a of them), so it does not undo the plain runs' cache.
 */
function flagsTag() {
  const options = `${process.execArgv.join(' ')}|${process.env.NODE_OPTIONS ?? ''}`;
  if (options === '|') return '';
  let h = 0x811c9dc5;
  for (let i = 0; i < options.length; i++) h = Math.imul(h ^ options.charCodeAt(i), 0x01000193);
  return `-o${(h >>> 0).toString(16)}`;
}

function readCache(folder, name) {
  if (!trusted(folder)) return undefined;
  try {
    return readFileSync(join(folder, name));
  } catch {
    return undefined;
  }
}

/** Written to a temporary name and renamed, so a run started meanwhile never reads half a cache. */
function writeCache(folder, name, script) {
  try {
    const data = script.createCachedData();
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (!trusted(folder)) return;
    const partial = join(folder, `${name}.${process.pid}.partial`);
    writeFileSync(partial, data);
    renameSync(partial, join(folder, name));
    removeStale(folder, Date.now());
  } catch {
    // A read-only or full folder: the next run compiles again.
  }
}

function removeStale(folder, now) {
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
  }
}

/**
 * Runs `file` (a CommonJS module) as Node would `require` it, with its compiled code cached under
 * `command`. Returns how the cache was used: 'hit', 'miss' (none yet: written at exit),
 * 'rejected' (V8 refused it: rewritten at exit) or 'off'.
 */
function runCached(file, command, folder = cacheFolder()) {
  // ASCII (scripts/build-cli.mjs): Latin-1 reads it as UTF-8 would, without decoding.
  const source = readFileSync(file, 'latin1');
  const name = folder && cacheName(source, command);
  const cached = name ? readCache(folder, name) : undefined;
  const script = new vm.Script(`${WRAPPER}${source}\n})`, { filename: file, cachedData: cached });
  const status = !name ? 'off' : !cached ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  if (status === 'miss' || status === 'rejected') {
    process.once('exit', () => writeCache(folder, name, script));
  }
  const module = new Module(file, require.main);
  module.filename = file;
  module.paths = Module._nodeModulePaths(dirname(file));
  script
    .runInThisContext()
    .call(
      module.exports,
      module.exports,
      Module.createRequire(file),
      module,
      file,
      dirname(file),
      nativeImport,
    );
  module.loaded = true;
  return status;
}

module.exports = { runCached };
