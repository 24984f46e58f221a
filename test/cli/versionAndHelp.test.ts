import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

describe('placid --version', () => {
  it("prints package.json's version and exits 0", async () => {
    const run = await runCli(['--version']);
    expect(run.stdout).toBe(`${version}\n`);
    expect(run.status).toBe(0);
  });
});

describe("each store command's help lists only the exit statuses it can give", () => {
  it.each([
    [['approve', '--help'], /unknown or\s+expired plan/],
    [['plans', '--help'], /no store at --data-dir/],
    [['plans', 'show', '--help'], /an unknown plan/],
    [['detect', '--help'], /--config/],
  ])('%j', async (argv, expected) => {
    const run = await runCli(argv);
    const status = run.stdout.slice(run.stdout.indexOf('Exit status:'));
    expect(status).toMatch(expected);
    expect(status).not.toMatch(/in use/);
    if (argv[0] !== 'detect') expect(status).not.toMatch(/config/);
  });
});
