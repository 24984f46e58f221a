/**
 * `placid collect` end to end without Debian's Prometheus: the fake Keystone/Nova/Placement and a
 * fake Prometheus (test/drivers/prometheus/fakePrometheus.ts) answering the collector's own queries
 * over HTTP with the series a real one would compute for the fleet of realPrometheus.test.ts. The
 * collector stores through the local pipeline; `placid fleet` shows the steal. PromQL itself (rate,
 * resets over scraped counters) is what realPrometheus.test.ts checks against the real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CollectConfigInput, collectConfigSchema, queryText } from '../../lib/collect/config.js';
import type { QueryName } from '../../lib/collect/queries.js';
import {
  constant,
  type FakePrometheus,
  type FakeSeries,
  startFakePrometheus,
} from '../drivers/prometheus/fakePrometheus.js';
import type { FakeOpenStack } from '../fakes/openstack/server.js';
import { collectFiles, startCloud, VM_A, VM_B } from './cloudFixture.js';
import { type CollectedRun, collectCases, collectLocal, FLEET_MAPPING } from './prometheusCases.js';

const SETTINGS: Partial<CollectConfigInput> = { mapping: FLEET_MAPPING };

const job = { job: 'fleet' };
const VM_A_TARGET = { instance: '10.0.0.11:9100', ...job };
const VM_B_TARGET = { instance: 'db-exporter:9100', uuid: VM_B, ...job };
const VM_R_TARGET = { instance: 'vm-r:9100', ...job };
const STRAY = { instance: 'stray:9100', ...job };
const CMP_1 = { instance: 'cmp-1.example.com:9100', ...job };
const CMP_2 = { instance: 'cmp-2.example.com:9100', ...job };

/** vm-r rebooted two minutes ago: its counters went back, so a rate window spanning it is a gap. */
const rebootedAt = Date.now() / 1000 - 120;
const resetWindow = (t: number) => (t >= rebootedAt && t < rebootedAt + 300 ? 1 : 0);

/** What a real Prometheus computes for each of the collector's queries over that fleet. */
function answers(): Record<QueryName, FakeSeries[]> {
  return {
    // 0.1 of each of vm-a's 2 vCPUs stolen (10 %), 0.25 of vm-b's 4 (25 %), 0.2 of vm-r's 2 (20 %).
    vm_steal: [
      constant(VM_A_TARGET, 0.2),
      constant(VM_B_TARGET, 1),
      constant(VM_R_TARGET, 0.4),
      constant(STRAY, 0),
    ],
    vm_busy: [
      constant(VM_A_TARGET, 0.8),
      constant(VM_B_TARGET, 1.6),
      constant(VM_R_TARGET, 0.8),
      constant(STRAY, 0.8),
    ],
    vm_load5: [constant(VM_A_TARGET, 1.5), constant(VM_B_TARGET, 1.5), constant(VM_R_TARGET, 1.5)],
    vm_resets: [constant(VM_A_TARGET, 0), constant(VM_B_TARGET, 0), { labels: VM_R_TARGET, at: resetWindow }],
    // libvirt on cmp-1: its VMs wait 0.1 and 0.25 of each vCPU for a physical CPU.
    vm_wait: [constant({ ...CMP_1, uuid: VM_A }, 0.2), constant({ ...CMP_1, uuid: VM_B }, 1)],
    vm_wait_resets: [constant({ ...CMP_1, uuid: VM_A }, 0), constant({ ...CMP_1, uuid: VM_B }, 0)],
    host_cpu: [constant(CMP_1, 60), constant(CMP_2, 30)],
    host_load5: [constant(CMP_1, 12), constant(CMP_2, 3)],
    host_resets: [constant(CMP_1, 0), constant(CMP_2, 0)],
    // cmp-1's VMs wait 1.2 of 4.0 demanded vCPUs; cmp-2 exports no libvirt metrics.
    host_steal: [constant({ instance: CMP_1.instance }, 30)],
  };
}

/** The answers keyed by query text: queries with the same text (node_load5) share their series. */
function byText(): Map<string, FakeSeries[]> {
  const config = collectConfigSchema.parse({ prometheus: { url: 'http://fake.invalid' }, ...SETTINGS });
  const queries = new Map<string, FakeSeries[]>();
  for (const [name, series] of Object.entries(answers()) as [QueryName, FakeSeries[]][]) {
    const text = queryText(config, name);
    if (text === undefined) throw new Error(`query ${name} is off by default`);
    queries.set(text, [...(queries.get(text) ?? []), ...series]);
  }
  return queries;
}

let prometheus: FakePrometheus;
let cloud: FakeOpenStack;
let run: CollectedRun;

beforeAll(async () => {
  prometheus = await startFakePrometheus(byText());
  cloud = await startCloud();
  run = await collectLocal(collectFiles(cloud, prometheus.url, SETTINGS));
});

afterAll(async () => {
  await prometheus?.close();
  await cloud?.close();
});

describe('placid collect against a fake Prometheus', () => {
  // Exact constant series: every stored step is the value itself.
  collectCases(() => run, {
    lookbackMs: 600_000,
    digits: 6,
    steady: 'all',
    afterReset: [20 - 1e-6, 20 + 1e-6],
  });
});

describe('the fake Prometheus', () => {
  it('was asked a range query per query text for the window (5 one-minute steps)', () => {
    const ranges = prometheus.requests.filter((r) => r.path === '/api/v1/query_range');
    expect(ranges.length).toBe(byText().size);
    for (const { params } of ranges) {
      expect([Number(params.end) - Number(params.start), params.step]).toEqual([240, '60']);
    }
  });

  it('answers a query it does not know as Prometheus answers a bad one', async () => {
    const response = await fetch(`${prometheus.url}/api/v1/query`, {
      method: 'POST',
      body: new URLSearchParams({ query: 'up' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 'error', errorType: 'bad_data' });
  });
});
