/**
 * Every file or pipe input has a cap: a device that never ends (/dev/zero) or a pipe far too large
 * is refused promptly with exit 2 and one line naming the input and the cap, never read into
 * gigabytes or ended with a stack trace. Runs the built bundle, so a hang meets the spawn timeout.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempFiles } from './runCli.js';

const files = tempFiles('placid-caps-');
const hosts = files.write('hosts.json', []);
const request = files.write('request.json', { flavor: { name: 'm1', vcpus: 1, memory_mb: 512 } });

function placid(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, ['bin/placid.cjs', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  return { status: run.status, stderr: run.stderr, timedOut: run.error !== undefined };
}

describe('an input that never ends', () => {
  // A small cap keeps each case quick; the default's own case is the pipe below.
  const small = { PLACID_MAX_INPUT_MB: '8' };
  it.each([
    ['--hosts', ['schedule', '--hosts', '/dev/zero', '--request', request], /hosts file \/dev\/zero.*8 MiB/],
    [
      '--request',
      ['schedule', '--hosts', hosts, '--request', '/dev/zero'],
      /request file \/dev\/zero.*8 MiB/,
    ],
    [
      '--config',
      ['schedule', '--hosts', hosts, '--request', request, '--config', '/dev/zero'],
      /config file \/dev\/zero.*8 MiB/,
    ],
    ['--fleet', ['plan', '--fleet', '/dev/zero'], /fleet file \/dev\/zero.*8 MiB/],
    ['ingest', ['ingest', '/dev/zero'], /\/dev\/zero.*8 MiB/],
    ['agent --config', ['agent', '--config', '/dev/zero', '--check'], /\/dev\/zero.*8 MiB/],
  ])('%s /dev/zero: exit 2, one line naming it and the cap', (_, args, mentions) => {
    const run = placid(args as string[], small);
    expect(run.timedOut).toBe(false);
    expect([run.status, run.stderr]).toEqual([2, expect.stringMatching(/^placid: [^\n]+\n$/)]);
    expect(run.stderr).toMatch(mentions);
  });

  it('config files have a smaller cap of their own', () => {
    const run = placid(['agent', '--config', '/dev/zero', '--check']);
    expect([run.status, run.stderr]).toEqual([2, expect.stringMatching(/\/dev\/zero.*16 MiB/)]);
  });

  it.each([
    ['ingest -', 'ingest -', /standard input.*256 MiB/],
    ['--hosts /dev/stdin', `schedule --hosts /dev/stdin --request ${request}`, /\/dev\/stdin.*256 MiB/],
  ])('a 600 MB pipe into %s: exit 2 at the default cap', (_, command, mentions) => {
    const run = spawnSync(
      'sh',
      ['-c', `head -c 600M /dev/zero | "${process.execPath}" bin/placid.cjs ${command}`],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect([run.status, run.stderr]).toEqual([2, expect.stringMatching(/^placid: [^\n]+\n$/)]);
    expect(run.stderr).toMatch(mentions);
  });
});
