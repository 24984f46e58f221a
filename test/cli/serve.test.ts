import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServe, runServe, type ServeExtension, startServe } from '../../lib/cli/serve.js';
import { LocalPipeline } from '../../lib/local/pipeline.js';
import { runCli } from './runCli.js';

const silent = { stdout: { write: () => true }, stderr: { write: () => true } };
const body = (id: string) =>
  JSON.stringify({
    request_id: id,
    flavor: { name: 'm1.small', vcpus: 1, memory_mb: 512 },
    advisory: true,
    candidates: [{ host: 'nowhere' }],
  });

/** A store directory with nothing in it yet (created the way `placid ingest` creates one). */
async function emptyStore(): Promise<string> {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'placid-serve-')), 'store');
  await (await LocalPipeline.start({ dataDir, stages: [] })).close();
  return dataDir;
}

describe('placid serve', () => {
  let serve: RunningServe;
  beforeAll(async () => {
    serve = await startServe({ dataDir: await emptyStore(), port: 0, io: silent });
  });
  afterAll(async () => {
    await serve.close();
  });

  it('answers as the Function URL does: the advisory answer, and 405 for a GET', async () => {
    // Act
    const advised = await fetch(serve.url, { method: 'POST', body: body('s-1') });
    const get = await fetch(serve.url);
    // Assess
    expect(advised.status).toBe(200);
    expect(advised.headers.get('x-placid-advisory')).toBe('true');
    expect(await advised.json()).toMatchObject({ request_id: 's-1', unknown: [{ host: 'nowhere' }] });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('listens on 127.0.0.1 unless told otherwise', () => {
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('placid serve shutting down', () => {
  it('answers the request in flight, then refuses connections', async () => {
    // Prepare: a request whose body is still arriving when the shutdown begins
    const serve = await startServe({ dataDir: await emptyStore(), port: 0, io: silent });
    const text = body('s-inflight');
    const req = httpRequest(serve.url, {
      method: 'POST',
      headers: { 'content-length': Buffer.byteLength(text) },
    });
    const answered = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
    });
    req.write(text.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Act
    const closed = serve.close();
    req.end(text.slice(10));
    // Assess
    expect(await answered).toBe(200);
    await closed;
    await expect(fetch(serve.url, { method: 'POST', body: body('s-late') })).rejects.toThrow();
  });

  it('writes every advisory record it answered before the store closes', async () => {
    // Prepare
    const dataDir = await emptyStore();
    const serve = await startServe({ dataDir, port: 0, io: silent });
    const ids = ['w-1', 'w-2', 'w-3', 'w-4', 'w-5'];
    // Act: the records are written after the answers; stop at once
    const answers = await Promise.all(ids.map((id) => fetch(serve.url, { method: 'POST', body: body(id) })));
    await serve.close();
    // Assess
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const pipeline = await LocalPipeline.start({ dataDir, stages: [] });
    try {
      const records = await Promise.all(ids.map((id) => pipeline.store.getDecision(id)));
      expect(records.map((r) => r?.request_id)).toEqual(ids);
    } finally {
      await pipeline.close();
    }
  });

  it('starts its extensions after the store opens and stops them before it closes', async () => {
    // Prepare
    const events: string[] = [];
    const loop: ServeExtension = {
      name: 'probe',
      start: async ({ store }) => {
        events.push(`start:${(await store.listHosts()).length}`);
        return { stop: async () => void events.push('stop') };
      },
    };
    const serve = await startServe({ dataDir: await emptyStore(), port: 0, io: silent, extensions: [loop] });
    // Act
    await serve.close();
    // Assess
    expect(events).toEqual(['start:0', 'stop']);
  });

  it('says where it listens, and that it stopped, when its signal aborts', async () => {
    // Prepare
    let out = '';
    const io = { stdout: { write: (s: string) => (out += s) }, stderr: silent.stderr };
    const stop = new AbortController();
    // Act
    const running = runServe({ dataDir: await emptyStore(), port: '0' }, io, stop.signal);
    while (!out.includes('listening')) await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    // Assess
    expect(await running).toBe(0);
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(store .*, 0 hosts\)/);
    expect(out).toContain('placid serve: stopped');
  });

  it('refuses two stores at once, exit 2', async () => {
    // Act
    const run = await runCli(['serve', '--data-dir', '/tmp/x', '--dynamodb-endpoint', 'http://127.0.0.1:9']);
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--data-dir and --dynamodb-endpoint exclude each other');
  });

  it('refuses a port that is not a number, exit 2', async () => {
    // Act
    const run = await runCli(['serve', '--port', 'eighty']);
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--port eighty: must be a whole number from 0 to 65535');
  });
});
