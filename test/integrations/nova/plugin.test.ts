/**
 * placid_nova inside real Nova 26 (Debian's python3-nova): PlacidFilter and PlacidWeigher loaded by
 * class path through Nova's HostFilterHandler / HostWeightHandler, with `placid serve` behind them
 * over a real local store. Needs /usr/bin/python3 with python3-nova (`npm test` installs it).
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServe, startServe } from '../../../lib/cli/serve.js';
import { LocalPipeline } from '../../../lib/local/pipeline.js';
import { parseReportMessage } from '../../../lib/model/reports.js';
import type { AdvisoryAnswer } from '../../../lib/schedule/advisory.js';
import { hypervisorDoc, messageDoc } from '../../store/fixtures.js';
import { FAKE_AWS_CREDENTIALS, PluginDriver } from './pythonDriver.js';
import { sigV4Problem } from './sigv4.js';

const silent = { stdout: { write: () => true }, stderr: { write: () => true } };
/** Free RAM decides: cmp3 cannot hold 2 GiB (Placement), the RAM weigher prefers the most free. */
const FLEET: [string, number][] = [
  ['cmp0', 4096],
  ['cmp1', 16384],
  ['cmp2', 8192],
  ['cmp3', 1024],
];
/** What Nova holds after its own Placement: Placid's fleet plus a host Placid never heard of. */
const NOVA_HOSTS = [...FLEET.map(([h]) => [h, h]), ['ghost', 'ghost']];

let dir: string;
let serve: RunningServe;
let driver: PluginDriver;
let counter: { server: Server; url: string; posts: number };

/** Counts the plug-in's requests and passes them on to `placid serve` (real HTTP both ways). */
async function countingProxy(target: string) {
  const state = { posts: 0 };
  const server = createServer(async (req, res) => {
    state.posts++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const answer = await fetch(target, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
    });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.defineProperty({ server, url }, 'posts', { get: () => state.posts }) as {
    server: Server;
    url: string;
    posts: number;
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'placid-nova-'));
  const dataDir = join(dir, 'store');
  const pipeline = await LocalPipeline.start({ dataDir, stages: [] });
  // Reported just now: serve runs on the real clock, and ComputeFilter wants a live service.
  const now = new Date();
  const docs = FLEET.map(([host, ram]) =>
    hypervisorDoc({
      host,
      nodename: host,
      reported_at: now.toISOString(),
      total_usable_ram_mb: ram,
      free_ram_mb: ram,
      samples: [],
    }),
  );
  const { hypervisors } = parseReportMessage(JSON.stringify(messageDoc(docs)), now, 'test fleet');
  await Promise.all(hypervisors.map((h) => pipeline.store.putHostReport(h)));
  await pipeline.close();
  const config = join(dir, 'placid.json');
  await writeFile(
    config,
    JSON.stringify({
      filter_scheduler: { enabled_filters: ['ComputeFilter'], weight_classes: ['RAMWeigher'] },
    }),
  );
  [serve, driver] = await Promise.all([
    startServe({ dataDir, port: 0, config, io: silent }),
    PluginDriver.start(),
  ]);
  counter = await countingProxy(serve.url);
}, 60_000);

afterAll(async () => {
  driver?.close();
  counter?.server.close();
  await serve?.close();
  await rm(dir, { recursive: true, force: true });
});

let requests = 0;
const request = (overrides: Record<string, unknown> = {}) => ({
  request_id: `req-nova-${++requests}`,
  vcpus: 1,
  memory_mb: 2048,
  instance_uuid: '8d2a3b7e-0c1e-4a8e-9a51-5f2c5d1f0a11',
  ...overrides,
});

/** Placid's own advisory answer for the same request, asked directly. */
async function placidAnswer(requestId: string): Promise<AdvisoryAnswer> {
  const res = await fetch(serve.url, {
    method: 'POST',
    body: JSON.stringify({
      request_id: `${requestId}-direct`,
      advisory: true,
      flavor: { name: 'm1.small', vcpus: 1, memory_mb: 2048, root_gb: 1 },
      candidates: NOVA_HOSTS.map(([host, nodename]) => ({ host, nodename })),
    }),
  });
  return (await res.json()) as AdvisoryAnswer;
}

describe('placid_nova in Nova 26 with placid serve behind it', () => {
  it('keeps only the hosts Placid passes, and hosts Placid does not know', async () => {
    // Act
    const answer = await driver.run({ conf: { endpoint: serve.url }, hosts: NOVA_HOSTS, request: request() });
    // Assess
    expect(answer.passed.map(([h]) => h)).toEqual(['cmp0', 'cmp1', 'cmp2', 'ghost']);
    expect(answer.stats).toMatchObject({ calls: 1, answered: 1, unknown_hosts: 1, failed: 0 });
  });

  it("orders the hosts by Placid's weights", async () => {
    // Prepare
    const r = request();
    const placid = await placidAnswer(r.request_id);
    const byWeight = placid.candidates
      .filter((c) => c.passes)
      .sort((a, b) => (b as { weight: number }).weight - (a as { weight: number }).weight)
      .map((c) => c.host);
    // Act
    const answer = await driver.run({ conf: { endpoint: serve.url }, hosts: NOVA_HOSTS, request: r });
    // Assess
    const known = answer.order.map(([h]) => h).filter((h) => h !== 'ghost');
    expect(known).toEqual(byWeight);
    expect(known[0]).toBe('cmp1');
    expect(answer.selected).toEqual([['cmp1', 'cmp1']]);
    // The unknown host never outranks a host Placid prefers.
    expect(answer.order[0][0]).not.toBe('ghost');
  });

  it('lets every host pass with weight 0 when placid serve is down (fail-open)', async () => {
    // Act
    const answer = await driver.run({
      conf: { endpoint: 'http://127.0.0.1:9', timeout: 1 },
      hosts: NOVA_HOSTS,
      request: request(),
    });
    // Assess
    expect(answer.passed).toHaveLength(NOVA_HOSTS.length);
    expect(answer.order.every(([, , w]) => w === 0)).toBe(true);
    expect(answer.stats).toMatchObject({ calls: 1, failed: 1, failed_connect: 1, fail_open_decisions: 1 });
    expect(answer.log.join('\n')).toMatch(
      /WARNING Placid gave no usable answer \(connect: .*every host passes with weight 0/,
    );
  });

  it('lets no host pass when Placid is down and fail_open is false', async () => {
    // Act
    const answer = await driver.run({
      conf: { endpoint: 'http://127.0.0.1:9', timeout: 1, fail_open: false },
      hosts: NOVA_HOSTS,
      request: request(),
    });
    // Assess
    expect(answer.passed).toEqual([]);
    expect(answer.selected).toEqual([]);
  });

  it('makes one HTTP call for a multi-create, shared by the filter and the weigher', async () => {
    // Prepare
    const before = counter.posts;
    // Act
    const answer = await driver.run({
      conf: { endpoint: counter.url },
      hosts: NOVA_HOSTS,
      request: request({ num_instances: 3 }),
    });
    // Assess
    expect(answer.selected).toHaveLength(3);
    expect(counter.posts - before).toBe(1);
    expect(answer.stats.calls).toBe(1);
    // Three instances × (filter + weigher) asked; all but the first were answered from the cache.
    expect(answer.stats.cache_hits).toBe(5);
  });

  it('signs with SigV4 for the IAM Function URL when a region is set', async () => {
    // Prepare: a stand-in for the IAM-authenticated URL that checks the signature, then forwards
    const problems: (string | null)[] = [];
    const seen: Parameters<typeof sigV4Problem>[0][] = [];
    const iamUrl = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body });
      const problem = sigV4Problem(
        seen[seen.length - 1],
        FAKE_AWS_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
        'eu-west-1',
      );
      problems.push(problem);
      if (problem) {
        res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"Forbidden"}');
        return;
      }
      const answer = await fetch(serve.url, { method: 'POST', body });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => iamUrl.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(iamUrl.address() as AddressInfo).port}/`;
    try {
      // Act
      const answer = await driver.run({
        // The first signed call imports botocore inside the deadline: room for a loaded machine.
        conf: { endpoint: url, region: 'eu-west-1', timeout: 10 },
        hosts: NOVA_HOSTS,
        request: request(),
      });
      // Assess
      expect(problems).toEqual([null]);
      // The check is not vacuous: another secret does not verify.
      expect(sigV4Problem(seen[0], 'another-secret', 'eu-west-1')).toBe('signature does not match');
      expect(answer.passed.map(([h]) => h)).toEqual(['cmp0', 'cmp1', 'cmp2', 'ghost']);
      expect(answer.stats).toMatchObject({ answered: 1, failed: 0 });
    } finally {
      iamUrl.close();
    }
  });
});
