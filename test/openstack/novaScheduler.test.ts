/**
 * Nova consults Placid, for real: nova-scheduler restarted with placid_nova.PlacidFilter and
 * PlacidWeigher (integrations/nova on its PYTHONPATH), pointed at `placid serve` over this cloud's
 * own reports (`placid collect`). Placid's config isolates cmp-2 (IsolatedHostsFilter, a filter
 * Nova does not run here) and packs by RAM where Nova's own weighers spread: boots land on the host
 * Placid ranks first, never on the one it eliminates.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServe, startServe } from '../../lib/cli/serve.js';
import { runCli } from '../cli/runCli.js';
import type { FakePrometheus } from '../drivers/prometheus/fakePrometheus.js';
import { Operator, setUpOnce, useCloud } from './cloud.js';
import { type Collected, collect, prometheusFor, QUIET } from './placid.js';
import { runScript } from './scripts.js';

const PREFIX = 'sch-';
const PLUGIN = join(import.meta.dirname, '..', '..', 'integrations', 'nova');
const silent = { stdout: { write: () => true }, stderr: { write: () => true } };
/** No image is isolated: cmp-2 takes only isolated images, so Placid eliminates it for every boot. */
const PLACID_CONFIG = {
  DEFAULT: { service_down_time: 3600 },
  filter_scheduler: {
    enabled_filters: ['ComputeFilter', 'IsolatedHostsFilter'],
    isolated_hosts: ['cmp-2'],
    isolated_images: ['00000000-0000-4000-8000-000000000000'],
    restrict_isolated_hosts_to_isolated_images: true,
    weight_classes: ['RAMWeigher'],
    ram_weight_multiplier: -1.0,
  },
};

let operator: Operator;
let prometheus: FakePrometheus;
let collected: Collected;
let serve: RunningServe | undefined;
let proxy: { server: Server; url: string; posts: number; target: string };

/** Between nova-scheduler and `placid serve`: counts the plug-in's calls; a stopped serve is a reset. */
async function countingProxy() {
  const state = { posts: 0, target: '' };
  const server = createServer(async (req, res) => {
    state.posts++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    try {
      const answer = await fetch(state.target, {
        method: req.method,
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, { server, url });
}

/** Restarts nova-scheduler with Placid's filter and weigher (`up` restarts it when this changes). */
async function schedulerWithPlacid(failOpen: boolean) {
  const conf = join(collected.dir, `nova-scheduler-${failOpen}.conf`);
  writeFileSync(
    conf,
    `[filter_scheduler]
available_filters = nova.scheduler.filters.all_filters
available_filters = placid_nova.PlacidFilter
enabled_filters = ComputeFilter,ComputeCapabilitiesFilter,ImagePropertiesFilter,ServerGroupAntiAffinityFilter,ServerGroupAffinityFilter,PlacidFilter
weight_classes = nova.scheduler.weights.all_weighers,placid_nova.PlacidWeigher
[placid]
endpoint = ${proxy.url}
timeout = 2.0
fail_open = ${failOpen}
weight_multiplier = 100.0
`,
  );
  await upOrFail({ PLACID_OPENSTACK_SCHEDULER_CONF: conf, PLACID_OPENSTACK_SCHEDULER_PYTHONPATH: PLUGIN });
}

async function upOrFail(env: NodeJS.ProcessEnv = {}) {
  const up = await runScript('up', ['--no-install'], { env });
  if (up.status !== 0) throw new Error(`scripts/openstack/up failed:\n${up.output}`);
}

async function bootAndSettle(name: string, count = 1) {
  const ids = await operator.boot(name, { count });
  return Promise.all(ids.map((id) => operator.settle(id)));
}

setUpOnce(async () => {
  const cloud = useCloud();
  operator = new Operator(cloud.admin);
  await operator.deleteServers(PREFIX);
  // cmp-1 holds the most: Nova's own RAM weigher (spread) would avoid it, Placid's (pack) picks it.
  const [ballast] = await operator.boot(`${PREFIX}ballast`, { flavor: 'placid.large', host: 'cmp-1' });
  expect((await operator.settle(ballast))['OS-EXT-SRV-ATTR:host']).toBe('cmp-1');
  prometheus = await prometheusFor(QUIET);
  collected = await collect(cloud.admin, prometheus.url);
  const config = join(collected.dir, 'placid.json');
  writeFileSync(config, JSON.stringify(PLACID_CONFIG));
  serve = await startServe({ dataDir: collected.dataDir, port: 0, config, io: silent });
  expect(serve.hosts).toBe(3);
  proxy = await countingProxy();
  proxy.target = serve.url;
  await schedulerWithPlacid(true);
});

afterAll(async () => {
  proxy?.server.close();
  await serve?.close();
  await prometheus?.close();
  await operator?.deleteServers(PREFIX);
  // Back to Nova's own filters for the other files.
  await upOrFail();
});

describe('nova-scheduler with PlacidFilter and PlacidWeigher', () => {
  it('boots each server on the host Placid ranks first, never on the host Placid eliminates', async () => {
    // Prepare
    const before = proxy.posts;

    // Act: one at a time, so each is its own scheduling request.
    const servers = [];
    for (const n of [1, 2, 3]) servers.push(...(await bootAndSettle(`${PREFIX}one-${n}`)));

    // Assess
    expect(servers.map((s) => s.status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
    expect(servers.map((s) => s['OS-EXT-SRV-ATTR:host'])).toEqual(['cmp-1', 'cmp-1', 'cmp-1']);
    expect(proxy.posts - before).toBe(3);
  });

  it('asks Placid once for a multi-create of three', async () => {
    const before = proxy.posts;
    const servers = await bootAndSettle(`${PREFIX}multi`, 3);
    expect(servers.map((s) => s.status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
    expect(servers.map((s) => s['OS-EXT-SRV-ATTR:host'])).not.toContain('cmp-2');
    expect(proxy.posts - before).toBe(1);
  });

  it('still boots with placid serve stopped (fail-open), and the scheduler logs why', async () => {
    // Prepare
    await serve?.close();
    serve = undefined;
    const before = proxy.posts;
    const logFile = join(useCloud().dir, 'log', 'nova-scheduler.log');
    const logBefore = statSync(logFile).size;

    // Act
    const [server] = await bootAndSettle(`${PREFIX}open`);

    // Assess
    expect(server.status).toBe('ACTIVE');
    expect(proxy.posts - before).toBe(1);
    const logged = readFileSync(logFile).subarray(logBefore).toString();
    expect(logged).toContain('Placid gave no usable answer');
  });

  it('refuses the boot with NoValidHost when fail_open is false and Placid does not answer', async () => {
    // Prepare
    await schedulerWithPlacid(false);

    // Act
    const [server] = await bootAndSettle(`${PREFIX}closed`);

    // Assess
    expect(server.status).toBe('ERROR');
    expect(server.fault?.message).toContain('No valid host');
  });
});

describe('after the boots', () => {
  it('placid fleet shows the servers on the hosts Nova put them on', async () => {
    // Prepare: a fresh report of the cloud after the boots.
    const now = await collect(useCloud().admin, prometheus.url);
    const { servers } = await operator.nova('GET', '/servers/detail?all_tenants=1');
    const novaCount: Record<string, number> = {};
    for (const s of servers) {
      const host = s['OS-EXT-SRV-ATTR:host'];
      if (host) novaCount[host] = (novaCount[host] ?? 0) + 1;
    }

    // Act
    const run = await runCli(['fleet', '--data-dir', now.dataDir, '--json']);

    // Assess: Placid's count per host is Nova's, and cmp-1 holds what Placid sent there.
    expect(run.status).toBe(0);
    const hosts = JSON.parse(run.stdout).zones.flatMap((z: { hosts: unknown[] }) => z.hosts);
    const fleetCount = Object.fromEntries(hosts.map((h: { host: string; vms: number }) => [h.host, h.vms]));
    expect(fleetCount).toEqual({ 'cmp-1': 0, 'cmp-2': 0, 'cmp-3': 0, ...novaCount });
    expect(fleetCount['cmp-1']).toBeGreaterThanOrEqual(7);
  });
});
