/**
 * After hostile reports, the operator's commands still work (issue 12): `placid ingest` refuses each
 * with the field and range, and `placid fleet`, `placid detect` and `placid schedule --store` run
 * as before and never show or choose a host whose report was refused. A name stored before ingest
 * checked it (a lone surrogate) no longer breaks `fleet` or `detect` either.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalPipeline } from '../../lib/local/pipeline.js';
import { type HypervisorReport, validateReportMessage } from '../../lib/model/reports.js';
import { runCli, TEST_CONFIG, tempFiles } from './runCli.js';

// The CLI runs on the wall clock, so these hosts report now (within service_down_time, 60 s).
const secondsAgo = () => new Date(Date.now() - 5_000).toISOString();

function report(host: string, fields: Record<string, unknown> = {}) {
  return {
    schema_version: 1,
    hypervisors: [
      {
        host,
        availability_zone: 'az1',
        reported_at: secondsAgo(),
        vcpus_total: 16,
        vcpus_used: 0,
        total_usable_ram_mb: 16_384,
        free_ram_mb: 16_384,
        total_usable_disk_gb: 500,
        free_disk_mb: 500 * 1024,
        samples: [{ ts: secondsAgo(), steal_percent: 1, cpu_percent: 20, load5: 1 }],
        ...fields,
      },
    ],
  };
}

const HOSTILE: [string, object, RegExp][] = [
  [
    '4e15 vCPUs',
    report('evil-cpu', { vcpus_total: 4e15, total_usable_ram_mb: 4e15, free_ram_mb: 4e15 }),
    /vcpus_total: must be a number from 0 to 65536 vCPUs/,
  ],
  [
    '1e200 MiB of RAM',
    report('evil-ram', { total_usable_ram_mb: 1e200, free_ram_mb: 1e200 }),
    /total_usable_ram_mb: .*got 1e\+200/,
  ],
  ['a lone surrogate in the host name', report('evil-\ud800'), /host: is not well-formed Unicode/],
  [
    'a terminal escape in the host name',
    report('evil-\u001b]0;pwned\u0007'),
    /host: contains a control character/,
  ],
];

const files = tempFiles('placid-hostile-cli-');
const dataDir = `${files.dir}/store`;
const request = files.write('request.json', { flavor: { name: 'm1.medium', vcpus: 1, memory_mb: 2048 } });
// Reports are a minute old when written and older by the time schedule runs: allow for that, or
// every host would be down (stale past service_down_time).
const config = files.write('nova.conf', `${TEST_CONFIG}\n[DEFAULT]\nservice_down_time = 600\n`);
afterAll(() => rmSync(files.dir, { recursive: true, force: true }));

const fleetHosts = async () => {
  const run = await runCli(['fleet', '--data-dir', dataDir, '--json']);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const view = JSON.parse(run.stdout) as { zones: { hosts: { host: string }[] }[] };
  return view.zones.flatMap((z) => z.hosts.map((x) => x.host)).sort();
};

describe('placid after hostile reports', () => {
  beforeAll(async () => {
    const good = await runCli(['ingest', files.write('good.json', report('good-1')), '--data-dir', dataDir]);
    expect(good.status).toBe(0);
  });

  it.each(HOSTILE)('ingest refuses %s, naming the field and range (exit 1)', async (_case, doc, reason) => {
    const run = await runCli(['ingest', files.write('hostile.json', doc), '--data-dir', dataDir]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(reason);
  });

  it('placid fleet shows only the hosts whose reports were accepted', async () => {
    expect(await fleetHosts()).toEqual(['good-1']);
  });

  it('placid detect runs', async () => {
    const run = await runCli(['detect', '--data-dir', dataDir, '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('placid schedule --store places on an accepted host, never a refused one', async () => {
    const run = await runCli([
      'schedule',
      '--store',
      '--data-dir',
      dataDir,
      '--request',
      request,
      '--config',
      config,
      '--json',
    ]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).selected).toEqual([{ host: 'good-1', nodename: 'good-1' }]);
  });

  it('a host name stored before ingest checked it no longer breaks fleet or detect', async () => {
    // Prepare: written straight to the store, as an older Placid would have stored it.
    const legacy = validateReportMessage(report('legacy'), new Date()).hypervisors[0];
    const name = 'legacy-\ud800';
    const broken: HypervisorReport = {
      ...legacy,
      host: name,
      nodename: name,
      state: { ...legacy.state, host: name, nodename: name },
    };
    const pipeline = await LocalPipeline.start({ dataDir, stages: [] });
    try {
      await pipeline.store.putReports({ hypervisors: [broken], instances: [] });
    } finally {
      await pipeline.close();
    }
    // Act
    const detect = await runCli(['detect', '--data-dir', dataDir, '--json']);
    // Assess
    expect(await fleetHosts()).toContain('good-1');
    expect(detect.stderr).toBe('');
    expect(detect.status).toBe(0);
  });
});
