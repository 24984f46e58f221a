/** The local Function URL server under load and hostile request targets (issue 28). */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FunctionUrlServer,
  startFunctionUrlServer,
  type UrlHandler,
} from '../../lib/local/functionUrlServer.js';

let server: FunctionUrlServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A handler that answers each request only when the test says so (requests stay in flight). */
function heldHandler() {
  const waiting: (() => void)[] = [];
  const handler: UrlHandler = async (event) => {
    await new Promise<void>((resolve) => waiting.push(resolve));
    return { statusCode: 200, body: JSON.stringify({ bytes: event.body?.length ?? 0 }) };
  };
  return {
    handler,
    releaseAll: () => {
      for (const r of waiting.splice(0)) r();
    },
    waiting,
  };
}

async function start(handler: UrlHandler, limits: { maxInFlight?: number; maxBytesInFlight?: number } = {}) {
  server = await startFunctionUrlServer(handler, {
    host: '127.0.0.1',
    port: 0,
    functionName: 'test',
    ...limits,
  });
  return server.url;
}

/** Sends raw bytes and resolves with the status line and headers the server answers. */
function raw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      if (answer.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
  });
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
};

describe('the local Function URL server', () => {
  it('answers 400, not 500, to a request target that is no URL (POST http://[)', async () => {
    // Prepare
    const url = await start(async () => ({ statusCode: 200, body: '{}' }));
    // Act
    const answer = await raw(url, 'POST http://[ HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
    // Assess
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('answers 503 with Retry-After once as many requests as allowed are in flight, then takes requests again', async () => {
    // Prepare
    const held = heldHandler();
    const url = await start(held.handler, { maxInFlight: 2 });
    const first = [fetch(url, { method: 'POST', body: '{}' }), fetch(url, { method: 'POST', body: '{}' })];
    await until(() => held.waiting.length === 2);
    // Act
    const refused = await fetch(url, { method: 'POST', body: '{}' });
    held.releaseAll();
    const answered = await Promise.all(first);
    const later = fetch(url, { method: 'POST', body: '{}' });
    await until(() => held.waiting.length === 1);
    held.releaseAll();
    // Assess
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { type: string } }).error.type).toBe('ServiceUnavailable');
    expect(answered.map((a) => a.status)).toEqual([200, 200]);
    expect((await later).status).toBe(200);
  });

  it('refuses a big body beside another big one in flight, but still takes a small request', async () => {
    // Prepare: room for one 600 KB body beside another, not two
    const held = heldHandler();
    const url = await start(held.handler, { maxBytesInFlight: 1_000_000 });
    const big = 'x'.repeat(600_000);
    const first = fetch(url, { method: 'POST', body: big });
    await until(() => held.waiting.length === 1);
    // Act
    const second = await fetch(url, { method: 'POST', body: big });
    const small = fetch(url, { method: 'POST', body: '{}' });
    await until(() => held.waiting.length === 2);
    held.releaseAll();
    // Assess
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('1');
    expect((await small).status).toBe(200);
    expect((await first).status).toBe(200);
  });

  it('takes a body too big for the budget when it is the only request (the body limit bounds it)', async () => {
    const url = await start(async (e) => ({ statusCode: 200, body: String(e.body?.length) }), {
      maxBytesInFlight: 10,
    });
    const answer = await fetch(url, { method: 'POST', body: 'x'.repeat(1000) });
    expect([answer.status, await answer.text()]).toEqual([200, '1000']);
  });

  it('counts a chunked body as it arrives (no content-length to trust)', async () => {
    // Prepare
    const held = heldHandler();
    const url = await start(held.handler, { maxBytesInFlight: 1_000 });
    const first = fetch(url, { method: 'POST', body: 'x'.repeat(900) });
    await until(() => held.waiting.length === 1);
    // Act: a chunked body that outgrows what is left
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('y'.repeat(500));
      req.end();
    });
    held.releaseAll();
    // Assess
    expect(status).toBe(503);
    expect((await first).status).toBe(200);
  });

  it('answers a GET route without the handler', async () => {
    // Prepare
    server = await startFunctionUrlServer(async () => ({ statusCode: 418 }), {
      host: '127.0.0.1',
      port: 0,
      functionName: 'test',
      routes: { '/health': () => ({ status: 200, body: { status: 'ok' } }) },
    });
    // Act
    const health = await fetch(`${server.url}/health`);
    const other = await fetch(`${server.url}/other`);
    // Assess
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    expect(other.status).toBe(418);
  });
});
