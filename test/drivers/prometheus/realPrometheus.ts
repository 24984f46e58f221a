/**
 * A real Prometheus server for tests (Debian's `prometheus` package): started on a free loopback
 * port with a temporary config and storage directory, scraping an in-process exporter every second.
 * A missing binary fails the test with the command that installs it: the test must not pass
 * without the real PromQL engine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CANDIDATES = [process.env.PLACID_PROMETHEUS_BIN, '/usr/bin/prometheus', '/usr/local/bin/prometheus'];

export function prometheusBinary(): string {
  const found = CANDIDATES.find((p): p is string => typeof p === 'string' && existsSync(p));
  if (!found) {
    throw new Error(
      'no prometheus binary (looked for /usr/bin/prometheus, /usr/local/bin/prometheus and ' +
        '$PLACID_PROMETHEUS_BIN): install it with `apt-get install -y prometheus` (.ci/run does)',
    );
  }
  return found;
}

/** A scrape target of the exporter: the labels Prometheus attaches, and its exposition text. */
export interface ExporterTarget {
  name: string;
  labels: Record<string, string>;
  /** Metrics in the text exposition format, as of `elapsedSeconds` since the exporter started. */
  render(elapsedSeconds: number): string;
}

export interface RunningPrometheus {
  url: string;
  exporterUrl: string;
  startedAt: number;
  /** Scrapes each target has answered so far. */
  scrapes: Map<string, number>;
  stop(): Promise<void>;
}

export async function startPrometheus(targets: readonly ExporterTarget[]): Promise<RunningPrometheus> {
  const binary = prometheusBinary();
  const startedAt = Date.now();
  const scrapes = new Map<string, number>();
  const exporter = await listen(
    createServer((request, response) => {
      const name = new URL(request.url ?? '/', 'http://x').searchParams.get('target') ?? '';
      const target = targets.find((t) => t.name === name);
      if (!target) return response.writeHead(404).end(`no target ${name}`);
      scrapes.set(name, (scrapes.get(name) ?? 0) + 1);
      response.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' });
      response.end(target.render((Date.now() - startedAt) / 1000));
    }),
  );
  const exporterPort = (exporter.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'placid-prometheus-'));
  const port = await freePort();
  writeFileSync(join(dir, 'prometheus.yml'), scrapeConfig(exporterPort, targets));
  const child = spawn(
    binary,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    await new Promise<void>((resolve) => exporter.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForReady(url, child, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, exporterUrl: `http://127.0.0.1:${exporterPort}`, startedAt, scrapes, stop };
}

function scrapeConfig(exporterPort: number, targets: readonly ExporterTarget[]): string {
  // `__param_target` becomes ?target=… on the scrape URL: one exporter serves every target.
  const groups = targets.map((t) => ({
    targets: [`127.0.0.1:${exporterPort}`],
    labels: { __param_target: t.name, ...t.labels },
  }));
  return JSON.stringify({
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    scrape_configs: [{ job_name: 'fleet', static_configs: groups }],
  });
}

async function waitForReady(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${stderr()}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`prometheus did not become ready within 15 s: ${stderr()}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function freePort(): Promise<number> {
  const server = await listen(createServer());
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns true (or throws after `timeoutMs`). */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
