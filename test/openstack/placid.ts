/**
 * Placid over the real cloud: `placid collect` with this cloud's admin entry as its `openstack`
 * secret and the project's fake Prometheus for steal and load (real Nova and Placement, canned
 * metrics: nothing here runs guests that could be measured).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { collectConfigSchema, queryText } from '../../lib/collect/config.js';
import { QUERY_NAMES } from '../../lib/collect/queries.js';
import { runCli } from '../cli/runCli.js';
import {
  type FakePrometheus,
  type FakeSeries,
  startFakePrometheus,
} from '../drivers/prometheus/fakePrometheus.js';
import { type CloudEntry, COMPUTE_HOSTS } from './cloud.js';

/** Per host: its steal and busy CPU (percent) and load, constant over the window. */
export type HostMetrics = Record<string, HostMetric>;
interface HostMetric {
  steal: number;
  load: number;
  cpu: number;
}

export const QUIET: HostMetrics = Object.fromEntries(
  COMPUTE_HOSTS.map((h) => [h, { steal: 1, load: 2, cpu: 20 }]),
);

/**
 * A fake Prometheus with host steal, CPU and load for `metrics`; every other query has no series
 * (node_load5 serves hosts and VMs alike: its host series count as the other kind for VMs).
 */
export function prometheusFor(metrics: HostMetrics): Promise<FakePrometheus> {
  const config = collectConfigSchema.parse({ prometheus: { url: 'http://prometheus.invalid' } });
  const series = (pick: (m: HostMetric) => number): FakeSeries[] =>
    Object.entries(metrics).map(([host, m]) => ({ labels: { instance: host }, at: () => pick(m) }));
  const queries = new Map<string, FakeSeries[]>(
    QUERY_NAMES.map((name) => [queryText(config, name) ?? '', []]),
  );
  queries.set(
    queryText(config, 'host_steal') ?? '',
    series((m) => m.steal),
  );
  queries.set(
    queryText(config, 'host_load5') ?? '',
    series((m) => m.load),
  );
  queries.set(
    queryText(config, 'host_cpu') ?? '',
    series((m) => m.cpu),
  );
  return startFakePrometheus(queries);
}

export interface Collected {
  dir: string;
  dataDir: string;
  /** `placid collect --json`'s summary. */
  summary: Record<string, unknown> & { hosts: number; vms: number; complete: boolean };
}

/** `placid collect --once` over the real cloud into a fresh local store. */
export async function collect(
  admin: CloudEntry,
  prometheusUrl: string,
  extra: object = {},
): Promise<Collected> {
  const dir = mkdtempSync(join(tmpdir(), 'placid-openstack-'));
  writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ openstack: admin }));
  writeFileSync(
    join(dir, 'collect.yaml'),
    stringify({
      prometheus: { url: prometheusUrl, timeout: '10s' },
      credentials: { file: 'secrets.json' },
      ...extra,
    }),
  );
  const dataDir = join(dir, 'store');
  const run = await runCli([
    'collect',
    '--config',
    join(dir, 'collect.yaml'),
    '--data-dir',
    dataDir,
    '--json',
  ]);
  if (run.status !== 0) throw new Error(`placid collect exited ${run.status}: ${run.stderr}${run.stdout}`);
  return { dir, dataDir, summary: JSON.parse(run.stdout) };
}
