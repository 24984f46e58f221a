/** examples/systemd is complete: the files the unit and the agent config name exist and pass --check. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.js';
import { root } from '../helpers/builtCli.js';

const dir = join(root, 'examples/systemd');
const unit = readFileSync(join(dir, 'placid-agent.service'), 'utf8');

describe('examples/systemd', () => {
  it('agent.yaml passes placid agent --check, its collect.yaml included', async () => {
    const run = await runCli(['agent', '--check', '--config', join(dir, 'agent.yaml')]);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, collect: true });
  });

  it("creates the unit's user with a sysusers.d file", () => {
    const user = /^User=(\S+)$/m.exec(unit)?.[1];
    const sysusers = readFileSync(join(dir, 'placid.sysusers'), 'utf8');
    expect(sysusers).toMatch(new RegExp(`^u ${user} `, 'm'));
  });

  it('runs the command where npm install -g puts it under prefix /usr', () => {
    for (const line of unit.split('\n').filter((l) => /^ExecStart(Pre)?=/.test(l)))
      expect(line).toMatch(/^ExecStart(Pre)?=\/usr\/bin\/placid agent --config \/etc\/placid\/agent\.yaml/);
  });
});
