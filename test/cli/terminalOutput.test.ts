/**
 * Operator- and report-supplied strings (host names, zones, flavor names, plan ids, file names) never
 * reach the terminal with control characters: no ESC/CSI/OSC sequence, BEL, CR or C1 character.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../lib/cli/format.js';
import { runCli, TEST_CONFIG, tempFiles } from './runCli.js';

const OSC_TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const HOSTILE = `evil${OSC_TITLE}${CLEAR}\r\u009b31m\u0008`;
// Anything but tab and newline below U+0020, DEL, and C1.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function expectTerminalSafe(run: { stdout: string; stderr: string }): void {
  expect(run.stdout).not.toMatch(UNSAFE);
  expect(run.stderr).not.toMatch(UNSAFE);
}

describe('terminalSafe', () => {
  it('removes escape sequences whole, and every other control character', () => {
    expect(terminalSafe(`a${OSC_TITLE}b${CLEAR}c\r\u0007\u009b1m\td\n`)).toBe('abc1m\td\n');
  });

  it('leaves no control character in any text, and keeps ordinary text as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (anything, ordinary) => {
        expect(terminalSafe(anything)).not.toMatch(UNSAFE);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
        const printable = ordinary.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
        expect(terminalSafe(printable)).toBe(printable);
      }),
      { numRuns: 50 },
    );
  });
});

describe('the CLI with hostile strings', () => {
  const files = tempFiles('placid-terminal-');

  it('placid schedule shows a hostile zone and flavor name without their control characters', async () => {
    // Prepare
    const zone = { name: 'z', hosts: [], metadata: { availability_zone: `az${CLEAR}` } };
    const hosts = files.write('hosts.json', [
      { host: 'a', free_ram_mb: 8192, aggregates: [zone] },
      { host: 'b', free_ram_mb: 4096, aggregates: [zone], service: { disabled: true } },
    ]);
    const request = files.write('request.json', {
      flavor: { name: `m1${OSC_TITLE}`, vcpus: 1, memory_mb: 512 },
    });
    const config = files.write('nova.conf', TEST_CONFIG);
    // Act
    const run = await runCli(['schedule', '--hosts', hosts, '--request', request, '--config', config]);
    // Assess: decided or refused at the edge (names are checked there); never raw on the terminal
    expectTerminalSafe(run);
    expect(run.status).not.toBe(3);
    if (run.status === 0) expect(run.stdout).toContain('× m1');
  });

  it('placid schedule refuses a hostile host name without echoing its control characters', async () => {
    const hosts = files.write('hostile-hosts.json', [{ host: HOSTILE, free_ram_mb: 8192 }]);
    const request = files.write('request.json', { flavor: { name: 'm1', vcpus: 1, memory_mb: 512 } });
    const run = await runCli(['schedule', '--hosts', hosts, '--request', request]);
    expectTerminalSafe(run);
    expect(run.status).not.toBe(3);
  });

  it('placid fleet prints a hostile host name from a stored report without its control characters', async () => {
    // Prepare
    const dataDir = `${files.dir}/store`;
    const report = files.write('report.json', {
      schema_version: 1,
      hypervisors: [
        {
          host: HOSTILE,
          availability_zone: 'az1',
          reported_at: '2026-12-01T12:00:00Z',
          vcpus_total: 8,
          vcpus_used: 0,
          total_usable_ram_mb: 8192,
          free_ram_mb: 8192,
          total_usable_disk_gb: 100,
          free_disk_mb: 100 * 1024,
        },
      ],
    });
    const ingested = await runCli(['ingest', report, '--data-dir', dataDir]);
    // Act
    const run = await runCli(['fleet', '--data-dir', dataDir, '--at', '2026-12-01T12:00:30Z']);
    // Assess
    expectTerminalSafe(ingested);
    expectTerminalSafe(run);
  });

  it.each([
    ['a plan id', ['approve', `plan${OSC_TITLE}`, '--data-dir', '/nonexistent/placid']],
    ['a file name', ['schedule', '--hosts', `hosts${CLEAR}.json`, '--request', `r${OSC_TITLE}.json`]],
    ['an unknown option', ['fleet', `--${OSC_TITLE}`]],
  ])('echoes %s in an error message without its control characters', async (_what, argv) => {
    const run = await runCli(argv);
    expect(run.status).toBe(2);
    expectTerminalSafe(run);
  });
});
