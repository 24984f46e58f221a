/**
 * bin/compileCache.cjs: the bundle's compiled code kept between runs. Each case runs real Node
 * processes over a small bundle (or the built CLI) with a cache folder of its own.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { root, runPlacid } from '../helpers/builtCli.js';

const loader = join(root, 'bin/compileCache.cjs');
const STAMP_A = 'a'.repeat(64);
const STAMP_B = 'b'.repeat(64);

let dir: string;
let bundle: string;
let harness: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'placid-compile-cache-'));
  bundle = join(dir, 'bundle.cjs');
  harness = join(dir, 'harness.cjs');
  writeFileSync(
    harness,
    `const status = require(${JSON.stringify(loader)}).runCached(${JSON.stringify(bundle)}, process.argv[2]);
process.stderr.write('cache ' + status + '\\n');`,
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A bundle that uses what a CommonJS module has (require, __filename, module.exports) and the
 * loader's `__placidImport`, which must work on a cached run too.
 */
function writeBundle(stamp: string | null): void {
  const body = `const { basename } = require('node:path');
module.exports.answer = 42;
function triangle(n) { let s = 0; for (let i = 1; i <= n; i++) s += i; return s; }
console.log(JSON.stringify({ triangle: triangle(10), file: basename(__filename), exported: module.exports.answer }));
__placidImport('node:os').then((os) => console.log('imported', typeof os.tmpdir));
`;
  writeFileSync(bundle, stamp ? `${body}// placid-build ${stamp}\n` : body);
}

function run(command = 'schedule', env: NodeJS.ProcessEnv = {}, nodeOptions: string[] = []) {
  const r = spawnSync(process.execPath, [...nodeOptions, harness, command], {
    encoding: 'utf8',
    env: {
      ...process.env,
      NODE_DISABLE_COMPILE_CACHE: '',
      NODE_OPTIONS: '',
      NODE_COMPILE_CACHE: dir,
      ...env,
    },
  });
  return { status: r.status, stdout: r.stdout, cache: /cache (\w+)/.exec(r.stderr)?.[1], stderr: r.stderr };
}

const placidFiles = () => (existsSync(join(dir, 'placid')) ? readdirSync(join(dir, 'placid')).sort() : []);

describe('the compile cache', () => {
  it('is written by the first run and read by the next, which prints the same', () => {
    // Prepare
    writeBundle(STAMP_A);
    // Act
    const first = run();
    const second = run();
    // Assess
    expect(first).toMatchObject({ status: 0, cache: 'miss' });
    expect(first.stdout).toBe('{"triangle":55,"file":"bundle.cjs","exported":42}\nimported function\n');
    expect(second).toMatchObject({ status: 0, cache: 'hit', stdout: first.stdout });
    expect(placidFiles()).toEqual([
      `${STAMP_A.slice(0, 32)}-node${process.version}-${process.arch}-schedule.v8cache`,
    ]);
  });

  it('keeps one cache per command word, and one for anything else', () => {
    // Prepare
    writeBundle(STAMP_A);
    // Act
    const runs = [run('schedule'), run('--help'), run('../etc'), run('schedule'), run('--version')];
    // Assess
    expect(runs.map((r) => r.cache)).toEqual(['miss', 'miss', 'hit', 'hit', 'hit']);
    expect(placidFiles().map((f) => f.split('-').pop())).toEqual(['other.v8cache', 'schedule.v8cache']);
  });

  it('is not read for a rebuilt bundle: the build stamp is in the name', () => {
    // Prepare
    writeBundle(STAMP_A);
    run();
    writeBundle(STAMP_B);
    // Act
    const rebuilt = run();
    // Assess
    expect(rebuilt).toMatchObject({ status: 0, cache: 'miss' });
    expect(placidFiles()).toHaveLength(2);
  });

  it('is not kept for a bundle without a build stamp', () => {
    // Prepare
    writeBundle(null);
    // Act
    const runs = [run(), run()];
    // Assess
    expect(runs.map((r) => [r.status, r.cache])).toEqual([
      [0, 'off'],
      [0, 'off'],
    ]);
    expect(placidFiles()).toEqual([]);
  });

  it('is replaced when V8 rejects it, and the run compiles as usual', () => {
    // Prepare
    writeBundle(STAMP_A);
    run();
    const [name] = placidFiles();
    const path = join(dir, 'placid', name);
    writeFileSync(path, Buffer.alloc(readFileSync(path).length, 7));
    // Act
    const damaged = run();
    const after = run();
    // Assess
    expect(damaged).toMatchObject({ status: 0, cache: 'rejected' });
    expect(damaged.stdout).toContain('"triangle":55');
    expect(after.cache).toBe('hit');
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE, as Node’s own is', () => {
    // Prepare
    writeBundle(STAMP_A);
    // Act
    const r = run('schedule', { NODE_DISABLE_COMPILE_CACHE: '1' });
    // Assess
    expect(r).toMatchObject({ status: 0, cache: 'off' });
    expect(placidFiles()).toEqual([]);
  });

  it('goes to a folder of the user’s own in the OS temp folder when NODE_COMPILE_CACHE is unset', () => {
    // Prepare
    writeBundle(STAMP_A);
    // Act
    const r = run('schedule', { NODE_COMPILE_CACHE: '', TMPDIR: dir });
    // Assess: a folder of this user's own, which no one else can read or write
    expect(r).toMatchObject({ status: 0, cache: 'miss' });
    const folder = join(dir, `placid-compile-cache-${process.getuid!()}`);
    expect(readdirSync(folder)).toHaveLength(1);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });

  it.each([
    ['that others can write to', (folder: string) => chmodSync(folder, 0o777)],
    ['that another user owns', (folder: string) => chownSync(folder, 65534, 65534)],
  ])('is neither read nor written in a folder %s', (_case, spoil) => {
    // Prepare: a cache written, then its folder made one another user could have planted it in
    writeBundle(STAMP_A);
    run();
    const folder = join(dir, 'placid');
    const [name] = placidFiles();
    spoil(folder);
    const before = statSync(join(folder, name));
    // Act
    const runs = [run(), run()];
    // Assess: each run compiles as if there were none, and the file is not replaced
    expect(runs.map((r) => [r.status, r.cache])).toEqual([
      [0, 'miss'],
      [0, 'miss'],
    ]);
    expect(runs[1].stdout).toContain('"triangle":55');
    expect(statSync(join(folder, name)).ino).toBe(before.ino);
    expect(placidFiles()).toEqual([name]);
  });

  it('costs only the compile where it cannot be written', () => {
    // Prepare: the cache folder's parent is a file.
    writeBundle(STAMP_A);
    const blocked = join(dir, 'not-a-folder');
    writeFileSync(blocked, '');
    // Act
    const runs = [
      run('schedule', { NODE_COMPILE_CACHE: blocked }),
      run('schedule', { NODE_COMPILE_CACHE: blocked }),
    ];
    // Assess
    expect(runs.map((r) => [r.status, r.cache, r.stderr.includes('Error')])).toEqual([
      [0, 'miss', false],
      [0, 'miss', false],
    ]);
    expect(runs[1].stdout).toContain('"triangle":55');
  });

  it('is kept apart for runs with Node options, which may change V8’s flags', () => {
    // Prepare
    writeBundle(STAMP_A);
    run();
    // Act
    const predictable = [run('schedule', {}, ['--predictable']), run('schedule', {}, ['--predictable'])];
    const plain = run();
    // Assess
    expect(predictable.map((r) => r.cache)).toEqual(['miss', 'hit']);
    expect(plain.cache).toBe('hit');
    expect(placidFiles()).toHaveLength(2);
  });

  it('removes caches unused for 30 days when it writes one', () => {
    // Prepare
    writeBundle(STAMP_A);
    run();
    const folder = join(dir, 'placid');
    const [kept] = placidFiles();
    const old = join(folder, 'old-build.v8cache');
    const recent = join(folder, 'recent-build.v8cache');
    writeFileSync(old, 'x');
    writeFileSync(recent, 'x');
    const days = (n: number) => new Date(Date.now() - n * 86_400_000);
    utimesSync(old, days(31), days(31));
    utimesSync(recent, days(29), days(29));
    // Act: a new command's first run writes its cache.
    run('fleet');
    // Assess
    expect(placidFiles()).toEqual([kept, kept.replace('schedule', 'fleet'), 'recent-build.v8cache'].sort());
  });
});

describe('the placid CLI', () => {
  it('is an ASCII bundle with its build stamp last, as the loader reads it (Latin-1, no hash)', () => {
    // Act
    const bundle = readFileSync(join(root, 'dist/placid.cjs'));
    // Assess
    expect(bundle.findIndex((byte) => byte > 0x7f)).toBe(-1);
    expect(bundle.subarray(-81).toString()).toMatch(/^\/\/ placid-build [0-9a-f]{64}\n$/);
  });

  it('keeps its compiled code per command, and a cached run answers as the first did', () => {
    // Prepare
    const env = { NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: '' };
    // Act
    const help = [runPlacid(['--help'], { env }), runPlacid(['--help'], { env })];
    const version = runPlacid(['--version'], { env });
    // Assess
    expect(help.map((r) => r.status)).toEqual([0, 0]);
    expect(help[1].stdout).toBe(help[0].stdout);
    expect(help[0].stdout).toContain('schedule');
    expect(version.status).toBe(0);
    const names = placidFiles();
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^[0-9a-f]{32}-node.*-other\.v8cache$/);
  });
});
