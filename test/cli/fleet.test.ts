import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { age } from '../../lib/cli/fleetText.js';
import type { FleetView, HostView } from '../../lib/fleet/fleetView.js';
import { runCli, tempFiles } from './runCli.js';

const AT = '2026-12-01T12:12:00Z';
const LATER = '2026-12-01T12:13:00Z';

/** A disabled host in a third zone, with neither samples nor VMs. */
const DISABLED_HOST = JSON.stringify({
  schema_version: 1,
  hypervisors: [
    {
      host: 'cmp-az3-01',
      availability_zone: 'az3',
      reported_at: '2026-12-01T11:00:00Z',
      vcpus_total: 32,
      vcpus_used: 0,
      total_usable_ram_mb: 131072,
      free_ram_mb: 131072,
      total_usable_disk_gb: 900,
      free_disk_mb: 900 * 1024,
      service: { disabled: true, up: true },
    },
  ],
});

describe('placid fleet', () => {
  const files = tempFiles('placid-fleet-');
  const dataDir = `${files.dir}/store`;
  // The example reports are 2 minutes old at AT: a collector reporting every 5 minutes needs a
  // service_down_time above that, or every host reads as down.
  const config = files.write('nova.conf', '[DEFAULT]\nservice_down_time = 600\n');
  const fleet = (...args: string[]) =>
    runCli(['fleet', '--data-dir', dataDir, '--at', AT, '--config', config, ...args]);
  const json = async (...args: string[]) => {
    const run = await fleet('--json', ...args);
    return JSON.parse(run.stdout) as FleetView;
  };
  const host = (view: FleetView, name: string): HostView =>
    view.zones.flatMap((z) => z.hosts).find((h) => h.host === name)!;

  beforeAll(async () => {
    const ingested = await runCli(['ingest', 'examples/reports/fleet.json', '--data-dir', dataDir]);
    const disabled = await runCli([
      'ingest',
      files.write('disabled.json', DISABLED_HOST),
      '--data-dir',
      dataDir,
    ]);
    expect([ingested.status, disabled.status]).toEqual([0, 0]);
  });

  it("shows hosts silent for Nova's service_down_time (60 s) after their next report was due as down", async () => {
    // Act: no --config, so service_down_time is 60 s; the reports are 2 minutes old at AT, so 3 at LATER
    const run = await runCli(['fleet', '--data-dir', dataDir, '--at', LATER, '--json']);
    // Assess
    const view = JSON.parse(run.stdout) as FleetView;
    expect(host(view, 'cmp-az1-01').status).toBe('down');
    expect(host(view, 'cmp-az3-01').status).toBe('disabled');
  });

  it('shows what was ingested as aligned tables, one per availability zone', async () => {
    // Act
    const run = await fleet();
    // Assess
    expect(run.status).toBe(0);
    expect(
      run.stdout.replaceAll(dataDir, 'DIR'),
    ).toBe(`Fleet at 2026-12-01T12:12:00Z (DIR): 4 hosts in 3 zones, 5 VMs
Capacity is used/limit, limit = total × allocation ratio. Steal: latest sample, and the mean over the last 10 min.

az1: 2 hosts, 4 VMs
  HOST        STATUS                 VCPUS           RAM GiB        DISK GB  VMS  STEAL NOW  STEAL 10M  REPORTED
  cmp-az1-01  up        24/192 (48×4)  13%   91.0/384.0  24%  400/1800  22%    3      2.0%       2.2%     2m ago
  cmp-az1-02  up        40/192 (48×4)  21%  139.9/384.0  36%  600/1800  33%    1     16.1%      16.6%     2m ago

az2: 1 host, 1 VM
  HOST        STATUS                 VCPUS           RAM GiB        DISK GB  VMS  STEAL NOW  STEAL 10M  REPORTED
  cmp-az2-01  up        16/192 (48×4)   8%   42.2/384.0  11%  200/1800  11%    1      6.9%*      7.2%*    2m ago

az3: 1 host, 0 VMs
  HOST        STATUS                 VCPUS           RAM GiB        DISK GB  VMS  STEAL NOW  STEAL 10M  REPORTED
  cmp-az3-01  disabled   0/128 (32×4)   0%    0.0/128.0   0%     0/900   0%    0         -          -    72m ago

* from the host's VMs: the host sends no samples of its own
`);
  });

  it('prints JSON for scripts: capacity against Nova limits, VMs, report age', async () => {
    // Act
    const view = await json();
    // Assess
    expect(view.zones.map((z) => z.availability_zone)).toEqual(['az1', 'az2', 'az3']);
    expect(view.totals).toEqual({ hosts: 4, vms: 5 });
    expect(host(view, 'cmp-az1-01')).toMatchObject({
      status: 'up',
      vcpus: { used: 24, total: 48, ratio: 4, limit: 192 },
      ram_mb: { used: 393216 - 300000, total: 393216, ratio: 1 },
      disk_gb: { used: 400, total: 1800 },
      vms: 3,
      num_instances: 3,
      reported_at: '2026-12-01T12:10:00.000Z',
      report_age_seconds: 120,
    });
  });

  it('reads steal now from the latest host sample and over the window from the samples inside it', async () => {
    // Act
    const view = await json();
    // Assess: samples at 12:00 (2.1), 12:05 (2.4), 12:10 (2.0); the window is 12:02-12:12
    expect(host(view, 'cmp-az1-01').steal).toEqual({
      now: 2.0,
      now_at: '2026-12-01T12:10:00.000Z',
      window_mean: expect.closeTo(2.2, 10),
      window_samples: 2,
      source: 'host',
    });
  });

  it("falls back to the VMs' samples for a host that sends none of its own", async () => {
    // Act
    const view = await json();
    // Assess: web-2 reported 6.0, 7.5, 6.9 at 12:00, 12:05, 12:10
    expect(host(view, 'cmp-az2-01').steal).toMatchObject({
      now: 6.9,
      window_mean: expect.closeTo(7.2, 10),
      source: 'vms',
    });
  });

  it.each([
    ['30', 3, (2.1 + 2.4 + 2.0) / 3],
    ['1', 0, null],
  ])('averages steal over a --window of %s minutes', async (minutes, samples, mean) => {
    // Act
    const view = await json('--window', minutes);
    // Assess
    const steal = host(view, 'cmp-az1-01').steal;
    expect(steal.window_samples).toBe(samples);
    expect(steal.window_mean === null ? null : steal.window_mean).toEqual(
      mean === null ? null : expect.closeTo(mean, 10),
    );
    expect(steal.now).toBe(2.0);
  });

  it('says the store is empty rather than printing empty tables', async () => {
    // Prepare
    const empty = `${files.dir}/empty`;
    mkdirSync(empty);
    // Act
    const run = await runCli(['fleet', '--data-dir', empty]);
    // Assess
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      `The fleet store at ${empty} holds no hosts yet: ingest reports with \`placid ingest FILE\`.\n`,
    );
  });

  it.each([
    [
      'a data directory that does not exist',
      ['--data-dir', '/nonexistent/placid'],
      /no local fleet store at \/nonexistent\/placid/,
    ],
    [
      'a window of zero',
      ['--data-dir', '.', '--window', '0'],
      /--window.*must be a positive number of minutes/,
    ],
    [
      'a window that is not a number',
      ['--data-dir', '.', '--window', 'ten'],
      /must be a positive number of minutes/,
    ],
    [
      'an --at that is not a time',
      ['--data-dir', '.', '--at', 'yesterday'],
      /--at.*must be an ISO-8601 time/,
    ],
  ])('exits 2 on a usage error: %s', async (_, args, message) => {
    // Act
    const run = await runCli(['fleet', ...args]);
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});

describe('age', () => {
  it.each([
    [0, '0s'],
    [89, '89s'],
    [90, '2m'],
    [5399, '90m'],
    [5400, '2h'],
    [36 * 3600, '2d'],
  ])('renders %i seconds as %s', (seconds, text) => {
    // Assess
    expect(age(seconds)).toBe(text);
  });
});
