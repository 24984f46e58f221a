import { describe, expect, it } from 'vitest';
import { runCli, tempFiles } from '../cli/runCli.js';
import { examplePath } from './examplePath.js';
import { contendedFleet, fleetDocument } from './planFixtures.js';

const files = tempFiles('placid-plan-');
const fleetFile = files.write('fleet.json', fleetDocument(contendedFleet()));

describe('placid plan', () => {
  it('prints the plan as JSON with the documented keys, and exits 0', async () => {
    // Act
    const run = await runCli(['plan', '--fleet', fleetFile, '--json']);
    // Assess
    expect(run.status).toBe(0);
    const plan = JSON.parse(run.stdout);
    expect(plan.plan_id).toMatch(/^plan-/);
    expect(Object.keys(plan.migrations[0])).toEqual(
      expect.arrayContaining([
        'instance_uuid',
        'source_host',
        'dest_host',
        'wave',
        'reason',
        'estimated_bytes',
        'estimated_seconds',
      ]),
    );
    expect(Object.keys(plan.skipped[0])).toEqual(expect.arrayContaining(['instance_uuid', 'reason']));
  });

  it('prints a readable plan by wave, then the VMs not moved grouped by reason', async () => {
    // Act
    const run = await runCli(['plan', '--fleet', fleetFile]);
    // Assess
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Plan plan-[0-9a-f]{20} \(recommend mode: a dry run, nothing is executed\)/);
    expect(run.stdout).toContain('Wave 1: starts 12:00:00Z');
    expect(run.stdout).toContain('  Recovers without moving (2)');
  });

  it('exits 0 with an empty plan when nothing needs moving', async () => {
    // Prepare
    const calm = files.write('calm.json', {
      now: '2026-12-01T12:00:00Z',
      hypervisors: [{ host: 'a', availability_zone: 'az1' }],
      instances: [],
    });
    // Act
    const run = await runCli(['plan', '--fleet', calm, '--json']);
    // Assess
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ migrations: [], skipped: [] });
  });

  it('reads [rebalance] options from the config file', async () => {
    // Prepare
    const config = files.write('nova.conf', '[rebalance]\nmode = approve\nplan_ttl_minutes = 5\n');
    // Act
    const run = await runCli(['plan', '--fleet', fleetFile, '--config', config, '--json']);
    // Assess
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      mode: 'approve',
      status: 'pending_approval',
      expires_at: '2026-12-01T12:05:00.000Z',
    });
  });

  it.each([
    ['a missing fleet file', ['--fleet', `${files.dir}/nope.json`], 'cannot read fleet file'],
    ['a fleet file that is not JSON', ['--fleet', files.write('bad.json', '{')], 'bad.json: not valid JSON'],
    [
      'an invalid field',
      ['--fleet', files.write('bad2.json', { now: 'soon' })],
      'bad2.json: now: must be an ISO-8601 timestamp',
    ],
    [
      'a bad [rebalance] value',
      ['--fleet', fleetFile, '--config', files.write('bad.conf', '[rebalance]\nmode = yolo\n')],
      'bad.conf: [rebalance] mode = "yolo": expected one of recommend, approve, auto',
    ],
    [
      'an unknown option',
      [
        '--fleet',
        fleetFile,
        '--config',
        files.write('bad2.conf', '[rebalance]\nsteal_treshold_percent = 3\n'),
      ],
      'unknown option steal_treshold_percent',
    ],
    ['no --fleet', [], "required option '--fleet <file>' not specified"],
  ])('exits 2 on %s, saying what is wrong', async (_case, args, message) => {
    // Act
    const run = await runCli(['plan', ...args]);
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('plans the shipped example: one contended host relieved by moving two small victims', async () => {
    // Act
    const run = await runCli(['plan', '--fleet', examplePath('fleet.json'), '--json']);
    // Assess
    expect(run.status).toBe(0);
    const plan = JSON.parse(run.stdout);
    expect(plan.summary).toMatchObject({ suffering_vms: 4, contended_hosts: 1, suffering_left_predicted: 0 });
    expect(plan.migrations.every((m: { source_host: string }) => m.source_host === 'cmp-az1-01')).toBe(true);
  });
});
