/**
 * The collector against a real Prometheus (Debian's package), which scrapes an in-process exporter
 * serving a synthetic fleet every second, and the fake Keystone/Nova/Placement: `placid collect`
 * stores through the local pipeline, and `placid fleet` shows the steal Prometheus computed.
 * A missing prometheus binary fails this file (see realPrometheus.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrometheusClient } from '../../lib/drivers/prometheus/client.js';
import type { FakeOpenStack } from '../../lib/local/fakes/openstack/server.js';
import { openLocalStore } from '../../lib/local/localStore.js';
import { runCli } from '../cli/runCli.js';
import { libvirtText, nodeExporterText } from '../drivers/prometheus/nodeExporter.js';
import { type RunningPrometheus, startPrometheus, waitUntil } from '../drivers/prometheus/realPrometheus.js';
import {
  collectFiles,
  counterResetSamples,
  onNode,
  startCloud,
  VM_A,
  VM_B,
  VM_R,
  VM_SILENT,
} from './cloudFixture.js';

const RESET_AT_SECONDS = 9;
const guest = (steal: number, resetAtSeconds?: number) => ({
  cpus: 2,
  rates: { user: 0.3, system: 0.1, steal },
  load5: 1.5,
  resetAtSeconds,
});

let prometheus: RunningPrometheus;
let cloud: FakeOpenStack;
let files: ReturnType<typeof collectFiles>;
let collect: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  prometheus = await startPrometheus([
    // vm-a: found by its address; 0.1 of each of 2 vCPUs stolen = 10 %.
    { name: 'vm-a', labels: { instance: '10.0.0.11:9100' }, render: (e) => nodeExporterText(guest(0.1), e) },
    // vm-b: found by a uuid target label; 4 vCPUs, 25 % stolen.
    {
      name: 'vm-b',
      labels: { instance: 'db-exporter:9100', uuid: VM_B },
      render: (e) => nodeExporterText({ ...guest(0.25), cpus: 4 }, e),
    },
    // vm-r: found by its name; rebooted at RESET_AT_SECONDS, so its counters go back.
    {
      name: 'vm-r',
      labels: { instance: 'vm-r:9100' },
      render: (e) => nodeExporterText(guest(0.2, RESET_AT_SECONDS), e),
    },
    { name: 'stray', labels: { instance: 'stray:9100' }, render: (e) => nodeExporterText(guest(0), e) },
    // cmp-1 also exports libvirt's vCPU delay: its VMs wait 1.2 of 4.0 demanded vCPUs = 30 %.
    {
      name: 'cmp-1',
      labels: { instance: 'cmp-1.example.com:9100' },
      render: (e) =>
        nodeExporterText({ cpus: 4, rates: { user: 0.5, system: 0.1, steal: 0 }, load5: 12 }, e) +
        libvirtText(
          [
            { uuid: VM_A, vcpus: 2, delayPerVcpu: 0.1, runPerVcpu: 0.4 },
            { uuid: VM_B, vcpus: 4, delayPerVcpu: 0.25, runPerVcpu: 0.5 },
          ],
          e,
        ),
    },
    {
      name: 'cmp-2',
      labels: { instance: 'cmp-2.example.com:9100' },
      render: (e) => nodeExporterText({ cpus: 4, rates: { user: 0.2, system: 0.1, steal: 0 }, load5: 3 }, e),
    },
  ]);
  cloud = await startCloud();
  files = collectFiles(cloud, prometheus.url, {
    collect: { window: '8s', step: '1s', rate_window: '3s' },
    mapping: {
      vm: [
        { label: 'uuid', match: 'uuid' },
        { label: 'instance', match: 'address' },
        { label: 'instance', match: 'name' },
      ],
      host: [{ label: 'instance', match: 'host', regex: '^([^.:]+)' }],
    },
  });
  // Wait until Prometheus has seen vm-r's reboot, and two more scrapes after it.
  const client = new PrometheusClient({ url: prometheus.url });
  await waitUntil(
    async () => {
      const r = await client.instantQuery(
        'resets(node_cpu_seconds_total{instance="vm-r:9100",cpu="0",mode="steal"}[20s])',
        new Date(),
      );
      return (r.series[0]?.points[0]?.v ?? 0) > 0;
    },
    20_000,
    "vm-r's counter reset",
  );
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  collect = await runCli([
    'collect',
    '--config',
    files.configPath,
    '--local',
    '--data-dir',
    files.dataDir,
    '--json',
  ]);
}, 40_000);

afterAll(async () => {
  await prometheus?.stop();
  await cloud?.close();
});

describe('placid collect against a real Prometheus', () => {
  it('completes and sends a report per host and per placed VM', () => {
    const summary = JSON.parse(collect.stdout);
    expect([collect.status, summary.hosts, summary.vms, summary.complete]).toEqual([0, 2, 4, true]);
    expect(summary.messages.sent).toBe(summary.messages.built);
  });

  it('reports the series that map to nothing and the VMs with no series', () => {
    const summary = JSON.parse(collect.stdout);
    expect(summary.mapping.unmapped.map((u: { labels: string }) => u.labels)).toContain(
      '{instance="stray:9100",job="fleet"}',
    );
    expect(summary.vms_without_series).toEqual([`win-1 (${VM_SILENT})`]);
    expect(summary.skipped_servers.without_host).toBe(1);
  });

  it("stores each VM's steal as Prometheus computed it, in percent of its vCPUs", async () => {
    const local = await openLocalStore({ dataDir: files.dataDir });
    try {
      const now = new Date();
      const from = new Date(now.getTime() - 60_000);
      const a = await local.store.samplesFor(onNode(VM_A, 'cmp-1'), from, now);
      const b = await local.store.samplesFor(onNode(VM_B, 'cmp-1'), from, now);
      expect([a.length > 0, b.length > 0]).toEqual([true, true]);
      // The first steps of a young series read low (rate() extrapolates less at a series' start).
      const [lastA, lastB] = [a[a.length - 1], b[b.length - 1]];
      expect([lastA.steal_percent, lastA.cpu_percent, lastA.load5]).toEqual([
        expect.closeTo(10, 0),
        expect.closeTo(40, 0),
        1.5,
      ]);
      expect(lastB.steal_percent).toBeCloseTo(25, 0);
      expect(a.every((x) => x.steal_percent <= 10.5)).toBe(true);
    } finally {
      await local.close();
    }
  });

  it('marks the steps after a counter reset as gaps instead of data', async () => {
    const { reset, samples } = await counterResetSamples(files.dataDir, 60_000);
    expect(reset).toBeDefined();
    expect(samples.length).toBeGreaterThan(0);
    // Once the rate window no longer spans the reboot, the rates are good again.
    expect(samples.every((x) => x.ts < (reset?.from ?? '') || x.ts > (reset?.to ?? ''))).toBe(true);
  });

  it("shows the hosts in placid fleet with host-side steal, or their VMs' steal", async () => {
    // Prepare: the latest stored sample of cmp-2's only VM with data.
    const local = await openLocalStore({ dataDir: files.dataDir });
    const now = new Date();
    const vmR = await local.store.samplesFor(onNode(VM_R, 'cmp-2'), new Date(now.getTime() - 60_000), now);
    await local.close();
    // Act
    const fleet = await runCli(['fleet', '--data-dir', files.dataDir, '--json']);
    // Assess
    const hosts = JSON.parse(fleet.stdout).zones.flatMap((z: { hosts: unknown[] }) => z.hosts);
    const byName = Object.fromEntries(hosts.map((h: { host: string }) => [h.host, h]));
    expect(Object.keys(byName).sort()).toEqual(['cmp-1', 'cmp-2']);
    expect(byName['cmp-1']).toMatchObject({ availability_zone: 'az1', vms: 2, steal: { source: 'host' } });
    expect(byName['cmp-1'].steal.now).toBeCloseTo(30, 0);
    // cmp-2 exports no host-side steal: the view falls back to its VMs, i.e. vm-r's latest sample
    // (20 % in steady state; a rate just after its reboot may read lower).
    expect(byName['cmp-2'].steal).toMatchObject({ source: 'vms', now: vmR[vmR.length - 1].steal_percent });
    expect(byName['cmp-2'].steal.now).toBeGreaterThan(5);
    expect(byName['cmp-2'].steal.now).toBeLessThanOrEqual(20.5);
  });
});
