/**
 * The shipped example, end to end on one machine: ingest examples/reports/noisy.json, detect (a
 * plan waits for approval), approve, detect again (every wave runs through the local workflow),
 * and the fleet shows the moved VMs on their destinations. The reports carry fixed timestamps,
 * so every command runs `--at` a time just after them, as the README's walkthrough does.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/config/packageRoot.js';
import { runCli, tempFiles } from '../cli/runCli.js';

const example = (name: string) => join(packageRoot(), 'examples', name);
const dataDir = `${tempFiles('placid-example-').dir}/store`;
const config = example('approve.json');

describe('examples: detect -> approve -> migrate', () => {
  it('moves the suffering VMs of examples/reports/noisy.json off the contended host', async () => {
    // Prepare
    expect((await runCli(['ingest', example('reports/noisy.json'), '--data-dir', dataDir])).status).toBe(0);
    const first = await runCli([
      'detect',
      '--data-dir',
      dataDir,
      '--config',
      config,
      '--at',
      '2026-12-01T12:10:30Z',
      '--json',
    ]);
    const planId = JSON.parse(first.stdout).plan.plan_id as string;
    // Act
    const approve = await runCli(['approve', planId, '--data-dir', dataDir, '--at', '2026-12-01T12:10:40Z']);
    const run = await runCli([
      'detect',
      '--data-dir',
      dataDir,
      '--config',
      config,
      '--at',
      '2026-12-01T12:10:50Z',
      '--json',
    ]);
    const fleet = await runCli(['fleet', '--data-dir', dataDir, '--at', '2026-12-01T12:10:50Z', '--json']);
    // Assess
    expect(approve.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.completed).toEqual([planId]);
    expect(result.executed.map((e: { status: string }) => e.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    const vms = Object.fromEntries(
      JSON.parse(fleet.stdout).zones.flatMap((z: { hosts: Array<{ host: string; vms: number }> }) =>
        z.hosts.map((h) => [h.host, h.vms]),
      ),
    );
    expect(vms).toEqual({ 'cmp-az1-01': 2, 'cmp-az1-02': 2, 'cmp-az1-03': 3 });
  });
});
