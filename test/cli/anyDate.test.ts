/**
 * The examples work on any date: `placid ingest --as-of-now` stamps the shipped reports relative to
 * now, so years after their dates the README's serve, schedule --store and migrate still work.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { rebaseToNow } from '../../lib/cli/asOfNow.js';
import { buildCli, runPlacid, startPlacid, TEN_YEARS_MS } from '../helpers/builtCli.js';
import { eventually } from '../helpers/eventually.js';

const later = { clockOffsetMs: TEN_YEARS_MS };
const README_ADVISORY = {
  request_id: 'r1',
  flavor: { vcpus: 2, memory_mb: 2048 },
  advisory: true,
  candidates: [{ host: 'cmp-az1-01' }, { host: 'cmp-az1-02' }],
};

describe('rebaseToNow', () => {
  it('moves every time by one amount so the newest is now, keeping the distances', () => {
    // Prepare
    const body = JSON.stringify({
      reported_at: '2026-12-01T12:10:00Z',
      samples: [{ ts: '2026-12-01T12:00:00Z' }],
      instances: [{ last_migrated_at: '2026-11-20T08:30:00Z', name: '2026-12-01T12:10:00Z' }],
    });
    const now = Date.UTC(2031, 5, 1, 0, 0, 0);
    // Act
    const [moved] = rebaseToNow([{ body, where: 'x' }], now);
    // Assess
    const value = JSON.parse(moved.body);
    expect(value.reported_at).toBe('2031-06-01T00:00:00Z');
    expect(value.samples[0].ts).toBe('2031-05-31T23:50:00Z');
    expect(Date.parse(value.reported_at) - Date.parse(value.instances[0].last_migrated_at)).toBe(
      Date.parse('2026-12-01T12:10:00Z') - Date.parse('2026-11-20T08:30:00Z'),
    );
    expect(value.instances[0].name).toBe('2026-12-01T12:10:00Z'); // not a time field
  });
});

describe('the README examples ten years after their dates', () => {
  let dataDir: string;
  beforeAll(() => {
    buildCli();
    dataDir = join(mkdtempSync(join(tmpdir(), 'placid-anydate-')), 'store');
    const ingest = runPlacid(
      ['ingest', '--as-of-now', 'examples/reports/fleet.json', '--data-dir', dataDir],
      later,
    );
    expect(ingest.stderr).toBe('');
    expect(ingest.status).toBe(0);
  }, 60_000);

  it('placid serve places the curl example on a fresh store', async () => {
    // Prepare
    const serve = startPlacid(['serve', '--port', '0', '--no-detect', '--data-dir', dataDir], later);
    try {
      await eventually(() => /listening on (http:\S+)/.test(serve.out()), 30_000, 'placid serve to listen');
      const url = /listening on (http:\S+)/.exec(serve.out())?.[1] ?? '';
      // Act
      const answer = await fetch(url, { method: 'POST', body: JSON.stringify(README_ADVISORY) });
      // Assess
      expect(answer.status).toBe(200);
      const decision = (await answer.json()) as {
        selected: unknown;
        candidates: { passes: boolean }[];
      };
      expect(decision.selected).toEqual([{ host: 'cmp-az1-01', nodename: 'cmp-az1-01' }]);
      expect(decision.candidates.every((c: { passes: boolean }) => c.passes)).toBe(true);
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
  }, 60_000);

  it('placid schedule --store places and placid fleet shows the hosts up', () => {
    const placed = runPlacid(
      ['schedule', '--store', '--data-dir', dataDir, '--request', 'examples/request.json'],
      later,
    );
    expect(placed.stdout).toContain('Placed on: cmp-az1-01');
    expect(placed.status).toBe(0);
    const fleet = runPlacid(['fleet', '--data-dir', dataDir, '--json'], later);
    const hosts = JSON.parse(fleet.stdout).zones.flatMap((z: { hosts: { status: string }[] }) => z.hosts);
    expect(hosts.map((h: { status: string }) => h.status)).toEqual(['up', 'up', 'up']);
  }, 60_000);

  it('placid migrate finds the instance and moves it', () => {
    const run = runPlacid(
      [
        'migrate',
        '--data-dir',
        dataDir,
        '--instance',
        '6f1c2b00-0000-4000-8000-000000000003',
        '--to',
        'cmp-az1-02',
      ],
      later,
    );
    expect(run.stdout).toContain('migrated: 6f1c2b00-0000-4000-8000-000000000003 cmp-az1-01 -> cmp-az1-02');
    expect(run.status).toBe(0);
    // placid fleet follows the move: m1.xlarge (8 vCPU, 16 GiB, 160 GB local disk) left cmp-az1-01 for cmp-az1-02
    const fleet = JSON.parse(runPlacid(['fleet', '--data-dir', dataDir, '--json'], later).stdout);
    const hosts = Object.fromEntries(
      fleet.zones.flatMap((z: { hosts: { host: string }[] }) => z.hosts.map((h) => [h.host, h])),
    );
    expect(hosts['cmp-az1-01'].vcpus.used).toBe(24 - 8);
    expect(hosts['cmp-az1-02'].vcpus.used).toBe(40 + 8);
    expect(hosts['cmp-az1-01'].ram_mb.used).toBe(393216 - 300000 - 16384);
    expect(hosts['cmp-az1-02'].disk_gb.used).toBe(600 + 160);
    expect(hosts['cmp-az1-02'].vms).toBe(2);
  }, 60_000);
});
