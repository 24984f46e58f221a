import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../../lib/cli/serve.js';
import { parseDetectEvery, serveDetector } from '../../lib/cli/serveDetector.js';
import { approvePlan } from '../../lib/detector/index.js';
import type { FleetStore } from '../../lib/store/fleetStore.js';
import { runCli, tempFiles } from './runCli.js';

// The shipped example's reports end at 12:10:00Z; serve runs on the wall clock, so they are moved to now.
const EXAMPLE_END = Date.parse('2026-12-01T12:10:00Z');
const files = tempFiles('placid-serve-detect-');
const dataDir = `${files.dir}/store`;

function exampleReportedNow(): string {
  const shift = Date.now() - EXAMPLE_END;
  return readFileSync('examples/reports/noisy.json', 'utf8').replace(
    /20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ/g,
    (t) => new Date(Date.parse(t) + shift).toISOString(),
  );
}

/** Polls `check` until it returns a value, for at most `ms` (a bound, not a timing assertion). */
async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('the state was not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('placid serve runs the detector', () => {
  beforeAll(async () => {
    const ingest = await runCli([
      'ingest',
      files.write('noisy.json', exampleReportedNow()),
      '--data-dir',
      dataDir,
    ]);
    expect(ingest.status).toBe(0);
  });

  let out = '';
  let store: FleetStore | undefined;
  let serve: Awaited<ReturnType<typeof startServe>> | undefined;
  afterAll(async () => {
    await serve?.close();
  });

  it('makes the plan, and once approved migrates its VMs through the local workflow into the store', async () => {
    // Prepare
    const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (out += s) } };
    const probe = {
      name: 'probe',
      start: async (resources: { store: FleetStore }) => {
        store = resources.store;
        return { stop: async () => {} };
      },
    };
    serve = await startServe({
      dataDir,
      port: 0,
      io,
      extensions: [probe, serveDetector({ everyMs: 1000, config: 'examples/approve.json' })],
    });
    // Act
    const planId = await eventually(() => /plan (\S+) \(pending_approval\)/.exec(out)?.[1]);
    const fleetStore = store as FleetStore;
    await approvePlan(fleetStore, planId, new Date());
    const completed = await eventually(() => (out.includes(`completed ${planId}`) ? true : undefined));
    // Assess
    expect(completed).toBe(true);
    const sent = [...out.matchAll(/sent (\S+): (\S+) (\S+) -> (\S+)/g)];
    expect(sent.length).toBeGreaterThan(0);
    for (const [, migrationId, uuid, , dest] of sent) {
      expect(out).toContain(`succeeded ${migrationId}, VM on ${dest}`);
      expect((await fleetStore.getInstance(uuid))?.host).toBe(dest);
    }
  });

  it('stops after the run in progress, and the store then holds the moves', async () => {
    // Act
    await serve?.close();
    serve = undefined;
    const fleet = await runCli(['fleet', '--data-dir', dataDir, '--json']);
    // Assess
    expect(fleet.status).toBe(0);
    const hosts = JSON.parse(fleet.stdout).zones.flatMap(
      (z: { hosts: { host: string; vms: number }[] }) => z.hosts,
    );
    const dests = new Set([...out.matchAll(/sent \S+: \S+ \S+ -> (\S+)/g)].map((m) => m[1]));
    for (const dest of dests)
      expect(hosts.find((h: { host: string }) => h.host === dest).vms).toBeGreaterThan(0);
    expect(out).not.toContain('detect failed');
  });

  it('refuses a --detect-every under a second or that is not a duration, naming the option', () => {
    expect(parseDetectEvery(undefined)).toBe(60_000);
    expect(parseDetectEvery('90s')).toBe(90_000);
    expect(() => parseDetectEvery('500ms')).toThrow(
      /--detect-every 500ms: must be a duration of at least 1s/,
    );
    expect(() => parseDetectEvery('soon')).toThrow(/--detect-every soon/);
  });
});
