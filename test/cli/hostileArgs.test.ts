/**
 * Usage errors exit 2 with one line on stderr ("placid: …"), never 3 with a stack trace: the cases
 * issue 12 found, then a property over the store commands with generated hostile arguments.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempFiles } from './runCli.js';

const files = tempFiles('placid-hostile-');
const store = `${files.dir}/store`;
const corrupt = `${files.dir}/corrupt`;
const aFile = files.write('a-file', 'not a directory');

beforeAll(async () => {
  const ingested = await runCli(['ingest', 'examples/reports/fleet.json', '--data-dir', store]);
  expect(ingested.status).toBe(0);
  cpSync(store, corrupt, { recursive: true });
  writeFileSync(`${corrupt}/CURRENT`, 'garbage');
});

/** Exit 2, one line naming the problem, no stack trace. */
function expectUsageError(run: { status: number; stdout: string; stderr: string }, mentions: RegExp): void {
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/^placid: [^\n]+\n$/);
  expect(run.stderr).toMatch(mentions);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe('exit 2 with one clear line', () => {
  it('simulate --out <an existing file>, before the run', async () => {
    const run = await runCli(['simulate', '--out', aFile, '--seed', '1']);
    expectUsageError(run, /--out .*a-file: cannot hold the HTML report: it is a file, not a directory/);
  });

  it('fleet --data-dir <a file>', async () => {
    expectUsageError(
      await runCli(['fleet', '--data-dir', aFile]),
      /a-file cannot hold a placid store: it is a file/,
    );
  });

  it('approve ""', async () => {
    expectUsageError(
      await runCli(['approve', '', '--data-dir', store]),
      /plan id must not be empty; plan ids look like plan-/,
    );
  });

  it('a 5,000-character plan id, shown shortened', async () => {
    const run = await runCli(['approve', 'p'.repeat(5000), '--data-dir', store]);
    expectUsageError(run, /plan id is 5000 characters long; at most 128 are allowed/);
    expect(run.stderr.length).toBeLessThan(300);
  });

  it('fleet --window 1e12', async () => {
    expectUsageError(
      await runCli(['fleet', '--window', '1e12', '--data-dir', store]),
      /--window.*at most 43200/,
    );
  });

  it('a data dir whose LevelDB CURRENT file is corrupt', async () => {
    const run = await runCli(['fleet', '--data-dir', corrupt]);
    expectUsageError(run, /is damaged: its CURRENT file does not name a manifest/);
  });

  it('schedule --store --data-dir <missing> does not create an empty store', async () => {
    const request = files.write('request.json', { flavor: { name: 'm1', vcpus: 1, memory_mb: 512 } });
    const missing = `${files.dir}/typo`;
    const run = await runCli(['schedule', '--store', '--data-dir', missing, '--request', request]);
    expectUsageError(run, /no local fleet store at .*typo/);
    expect(() => mkdirSync(missing)).not.toThrow();
  });
});

describe('store commands with hostile arguments', () => {
  const hostileText = fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      '1e12',
      '-1',
      'NaN',
      'Infinity',
      '__proto__',
      '\u001b]0;x\u0007',
      '\ud800',
      '..',
    ),
    fc.string({ unit: 'binary', maxLength: 20 }).filter((s) => !s.includes('\u0000')),
    fc.integer({ min: 200, max: 6000 }).map((n) => 'x'.repeat(n)),
  );
  const hostileDir = fc.oneof(
    fc.constantFrom(aFile, corrupt, `${files.dir}/missing`, `${aFile}/below-a-file`, ''),
    hostileText.map((t) => `${files.dir}/${t}`),
  );
  const command = fc.oneof(
    fc.tuple(hostileDir).map(([d]) => ['fleet', '--data-dir', d]),
    fc.tuple(hostileText).map(([w]) => ['fleet', '--data-dir', store, '--window', w]),
    fc.tuple(hostileText).map(([t]) => ['fleet', '--data-dir', store, '--at', t]),
    fc.tuple(hostileText).map(([id]) => ['approve', id, '--data-dir', store]),
    fc.tuple(hostileDir).map(([d]) => ['approve', 'plan-0', '--data-dir', d]),
    fc.tuple(hostileDir).map(([d]) => ['plans', '--data-dir', d]),
    fc.tuple(hostileText).map(([f]) => ['schedule', '--hosts', f, '--request', f]),
    fc.tuple(hostileDir).map(([d]) => ['schedule', '--store', '--data-dir', d, '--request', aFile]),
    fc.tuple(hostileText).map(([s]) => ['simulate', '--seed', s, '--out', aFile]),
  );

  it('answer with a status and at most one line, never an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(command, async (argv) => {
        const run = await runCli(argv);
        expect(run.status, `placid ${argv.join(' ').slice(0, 200)}: ${run.stderr}`).not.toBe(3);
        expect(run.stderr).not.toMatch(/\n\s+at /);
        if (run.status === 2) expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      }),
      { numRuns: 60 },
    );
  });
});
