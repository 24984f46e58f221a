/**
 * The collector against a real Prometheus (Debian's package), which scrapes an in-process exporter
 * serving a synthetic fleet every second, and the fake Keystone/Nova/Placement: `placid collect`
 * stores through the local pipeline, and `placid fleet` shows the steal Prometheus computed.
 * A missing prometheus binary fails this file (see realPrometheus.ts).
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { PrometheusClient } from '../../lib/drivers/prometheus/client.js';
import { libvirtText, nodeExporterText } from '../drivers/prometheus/nodeExporter.js';
import { type RunningPrometheus, startPrometheus, waitUntil } from '../drivers/prometheus/realPrometheus.js';
import type { FakeOpenStack } from '../fakes/openstack/server.js';
import { collectFiles, startCloud, VM_A, VM_B } from './cloudFixture.js';
import { type CollectedRun, collectCases, collectLocal, FLEET_MAPPING } from './prometheusCases.js';

const RESET_AT_SECONDS = 9;
const guest = (steal: number, resetAtSeconds?: number) => ({
  cpus: 2,
  rates: { user: 0.3, system: 0.1, steal },
  load5: 1.5,
  resetAtSeconds,
});

let prometheus: RunningPrometheus;
let cloud: FakeOpenStack;
let run: CollectedRun;

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
  const files = collectFiles(cloud, prometheus.url, {
    collect: { window: '8s', step: '1s', rate_window: '3s' },
    mapping: FLEET_MAPPING,
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
  run = await collectLocal(files);
}, 40_000);

afterAll(async () => {
  await prometheus?.stop();
  await cloud?.close();
});

describe('placid collect against a real Prometheus', () => {
  // Prometheus's own rate(): steady to the unit once a series has a few scrapes behind it.
  collectCases(() => run, {
    lookbackMs: 60_000,
    digits: 0,
    steady: 'latest',
    afterReset: [5, 20.5],
  });
});
