/**
 * The local loop with nothing stopped: while `placid serve` runs (its detector in approve mode),
 * `placid ingest`, `fleet`, `plans`, `plans show` and `approve` work on the same store, the server
 * approves over HTTP too, and the approved plan is executed by the server's detector.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, runPlacid, startPlacid } from '../helpers/builtCli.js';
import { eventually } from '../helpers/eventually.js';

describe('ingest → serve → detect → plans show → approve → migrate, nothing stopped', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'placid-loop-')), 'store');
  const store = ['--data-dir', dataDir];
  let serve: ReturnType<typeof startPlacid>;
  let url = '';
  let planId = '';
  beforeAll(async () => {
    buildCli();
    expect(runPlacid(['ingest', '--as-of-now', 'examples/reports/noisy.json', ...store]).status).toBe(0);
    serve = startPlacid([
      'serve',
      '--port',
      '0',
      '--config',
      'examples/approve.json',
      '--detect-every',
      '1s',
      ...store,
    ]);
    await eventually(() => /listening on (http:\S+)/.test(serve.out()), 30_000, 'placid serve to listen');
    url = /listening on (http:\S+)/.exec(serve.out())?.[1] ?? '';
  }, 60_000);
  afterAll(async () => {
    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
  });

  it('lists the plan the server made, while it runs', async () => {
    await eventually(
      () => {
        const run = runPlacid(['plans', '--json', ...store]);
        expect(run.stderr).toBe('');
        planId = JSON.parse(run.stdout)[0]?.plan_id ?? '';
        return planId !== '';
      },
      30_000,
      'a plan',
    );
    const listed = runPlacid(['plans', ...store]);
    expect(listed.stdout).toMatch(
      new RegExp(`${planId}  pending_approval .* 3 moves in 3 waves, 24 GiB, for 3 suffering VMs`),
    );
  }, 60_000);

  it('plans show gives every move with its name, reason and what approving does next', () => {
    const shown = runPlacid(['plans', 'show', planId, ...store]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(
      '7a2d0c00-0000-4000-8000-000000000003 (web-3)  cmp-az1-01 → cmp-az1-03  8.0 GiB',
    );
    expect(shown.stdout).toMatch(/Wave 3: starts/);
    expect(shown.stdout).toContain('lower bound 24.0 GiB');
    expect(shown.stdout).toMatch(/Next: approving it .* sends wave 1 \(1 migration\)/);
    const json = JSON.parse(runPlacid(['plans', 'show', planId, '--json', ...store]).stdout);
    expect(json.plan.plan.migrations).toHaveLength(3);
    expect(json.instance_names['7a2d0c00-0000-4000-8000-000000000005']).toBe('db-5');
    expect(json.migrations).toEqual({ planned: 3 });
  });

  it('ingests and shows the fleet while the server runs', () => {
    const ingest = runPlacid(['ingest', '--as-of-now', 'examples/reports/noisy.json', ...store]);
    expect(ingest.stderr).toBe('');
    expect(ingest.status).toBe(0);
    const fleet = runPlacid(['fleet', ...store]);
    expect(fleet.status).toBe(0);
    expect(fleet.stdout).toMatch(/cmp-az1-01 {2}up .* 5 /);
  });

  it('approves with placid approve, and the server refuses a second approval over HTTP', async () => {
    const approved = runPlacid(['approve', planId, ...store]);
    expect(approved.stdout).toContain(`approved ${planId}: 3 migration(s) in 3 wave(s)`);
    const again = await fetch(`${url}/plans/${planId}/approve`, { method: 'POST' });
    expect(again.status).toBe(409);
    const unknown = await fetch(`${url}/plans/plan-0000/approve`, { method: 'POST' });
    expect(unknown.status).toBe(404);
  });

  it("the server's detector executes the approved plan", async () => {
    await eventually(
      () => JSON.parse(runPlacid(['plans', '--json', ...store]).stdout)[0]?.status === 'completed',
      60_000,
      'the plan to complete',
    );
    const shown = JSON.parse(runPlacid(['plans', 'show', planId, '--json', ...store]).stdout);
    expect(shown.migrations).toEqual({ succeeded: 3 });
    const fleet = runPlacid(['fleet', ...store]);
    expect(fleet.stdout).toMatch(/cmp-az1-01 {2}up .* 2 /); // 2 VMs left on it, as the README says
  }, 90_000);
});
