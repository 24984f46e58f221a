/**
 * Operating errors and hostile data dirs, through the built bundle (a separate process, so a hang
 * ends in the spawn's timeout rather than the test run): exit 2 with one line, never exit 3 with a
 * stack trace, never a silent in-memory store.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempFiles } from './runCli.js';

const files = tempFiles('placid-operating-');
const REPORTS = 'examples/reports/fleet.json';

function placid(args: string[], timeout = 30_000) {
  const run = spawnSync(process.execPath, ['bin/placid.cjs', ...args], { encoding: 'utf8', timeout });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, timedOut: run.error !== undefined };
}

function expectOneLine(run: ReturnType<typeof placid>, mentions: RegExp): void {
  expect(run.timedOut).toBe(false);
  expect([run.status, run.stderr]).toEqual([2, expect.stringMatching(/^placid: [^\n]+\n$/)]);
  expect(run.stderr).toMatch(mentions);
}

describe('--data-dir ""', () => {
  it.each([
    ['ingest', REPORTS],
    ['fleet'],
    ['plans'],
    ['approve', 'plan-1'],
    ['detect'],
    ['collect', '--local', '--config', 'x.yaml'],
    ['schedule', '--store', '--request', 'r.json'],
    ['migrate', '--instance', 'vm-1', '--to', 'cmp-2'],
    ['serve', '--port', '0'],
  ])('%s refuses it with exit 2 and stores nothing', (...command) => {
    const run = placid([...command, '--data-dir', '']);
    expectOneLine(run, /--data-dir is empty/);
    expect(run.stdout).toBe('');
  });
});

describe('a data dir that cannot be one', () => {
  it('/proc/x ends at once with exit 2', () => {
    expectOneLine(placid(['ingest', REPORTS, '--data-dir', '/proc/x'], 20_000), /\/proc\/x/);
  });

  it('a directory the process may not write is exit 2 naming it', () => {
    const locked = `${files.dir}/locked`;
    mkdirSync(locked);
    // As root, only an immutable directory refuses (EPERM); otherwise its mode does (EACCES).
    const immutable = spawnSync('chattr', ['+i', locked]).status === 0;
    if (!immutable) spawnSync('chmod', ['0500', locked]);
    try {
      expectOneLine(placid(['ingest', REPORTS, '--data-dir', `${locked}/store`]), /locked\/store/);
      const inside = `${files.dir}/locked-store`;
      mkdirSync(inside);
      if (immutable) spawnSync('chattr', ['+i', inside]);
      else spawnSync('chmod', ['0500', inside]);
      expectOneLine(placid(['ingest', REPORTS, '--data-dir', inside]), /not permitted|permission denied/);
      if (immutable) spawnSync('chattr', ['-i', inside]);
    } finally {
      if (immutable) spawnSync('chattr', ['-i', locked]);
    }
  });
});

describe('serve where it cannot listen', () => {
  let taken: Server;
  let port = 0;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise((resolve) => taken.close(resolve)));

  const serve = (...args: string[]) =>
    placid(['serve', '--no-detect', '--data-dir', `${files.dir}/serve-store`, ...args]);

  it('a port in use', () => {
    expectOneLine(serve('--port', String(port)), /EADDRINUSE.*in use/);
  });

  it('an address that is not local', () => {
    expectOneLine(serve('--host', '192.0.2.1', '--port', '0'), /EADDRNOTAVAIL.*not one of this machine/);
  });

  it('a host name that does not resolve', () => {
    expectOneLine(serve('--host', 'no-such-host.invalid', '--port', '0'), /no-such-host\.invalid/);
  });
});
