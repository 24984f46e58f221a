import { describe, expect, it, vi } from 'vitest';
import { createUrlHandler } from '../../../functions/schedule/endpoint.js';
import type { FleetStore } from '../../../lib/store/fleetStore.js';
import { depsFor, putHosts, useStoreFixture } from '../../schedule/fixtures.js';
import { answerOf, urlContext, urlEvent } from './events.js';

const db = useStoreFixture((store) => putHosts(store, 2, 8192));

const body = (id: string, memoryMb = 2048) =>
  JSON.stringify({ request_id: id, flavor: { name: 'm1.medium', vcpus: 1, memory_mb: memoryMb } });

/** POSTs (or sends `method`) to the endpoint over `over` (the db.store by default). */
async function call(
  text: string | undefined,
  options: { method?: string; base64?: boolean; over?: FleetStore } = {},
) {
  const handler = createUrlHandler(depsFor(options.over ?? db.store));
  const event = urlEvent(
    options.base64 && text ? Buffer.from(text).toString('base64') : text,
    options.method,
    options.base64,
  );
  return answerOf(await handler(event, urlContext()));
}

/** The db.store with getDecision failing as given. */
const failing = (error: Error) =>
  Object.assign(Object.create(db.store) as FleetStore, { getDecision: () => Promise.reject(error) });

describe('the schedule Function URL', () => {
  it('answers 200 with the decision JSON', async () => {
    // Act
    const answer = await call(body('u-1'));
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({
      'content-type': 'application/json',
      'x-placid-replayed': 'false',
    });
    expect(Object.keys(answer.body).sort()).toEqual(['alternates', 'eliminated', 'selected', 'weighed']);
  });

  it('answers a repeated request with the recorded decision', async () => {
    // Prepare
    const first = await call(body('u-again'));
    // Act
    const second = await call(body('u-again'));
    // Assess
    expect(second).toMatchObject({ status: 200, body: first.body, headers: { 'x-placid-replayed': 'true' } });
  });

  it('decodes a base64 body', async () => {
    // Act
    const answer = await call(body('u-b64'), { base64: true });
    // Assess
    expect(answer.status).toBe(200);
  });

  it.each([
    ['an empty body', undefined, 'is empty'],
    ['a body that is not JSON', '{"request_id":', 'not valid JSON'],
    ['a request without request_id', JSON.stringify({ flavor: { vcpus: 1, memory_mb: 512 } }), 'request_id'],
    [
      'a negative flavor',
      JSON.stringify({ request_id: 'u-neg', flavor: { vcpus: -1, memory_mb: 512 } }),
      'vcpus',
    ],
  ])('answers 400 naming the problem for %s', async (_case, text, message) => {
    // Act
    const answer = await call(text);
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      type: 'ValidationError',
      message: expect.stringContaining(message),
    });
  });

  it('answers 405 to anything but POST', async () => {
    // Act
    const answer = await call(undefined, { method: 'GET' });
    // Assess
    expect(answer).toMatchObject({ status: 405, headers: { allow: 'POST' } });
  });

  it('answers 409 with the full decision when no host can take the request', async () => {
    // Act
    const answer = await call(body('u-huge', 64_000));
    // Assess
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ type: 'NoValidHost' });
    expect(answer.body.eliminated).toHaveLength(2);
  });

  it('answers 409 RequestIdConflict when a request id is reused for another request', async () => {
    // Prepare
    await call(body('u-same'));
    // Act
    const answer = await call(body('u-same', 4096));
    // Assess
    expect(answer.status).toBe(409);
    expect(answer.body.error?.type).toBe('RequestIdConflict');
  });

  it('answers 503 with Retry-After when DynamoDB is throttling', async () => {
    // Prepare
    const throttled = failing(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }));
    // Act
    const answer = await call(body('u-busy'), { over: throttled });
    // Assess
    expect(answer).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
  });

  it('answers 500 without exposing the internal error', async () => {
    // Act
    const answer = await call(body('u-bug'), { over: failing(new TypeError('secret internals')) });
    // Assess
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).not.toContain('secret internals');
  });

  it('answers an advisory request with a verdict per candidate, 200 even when none passes', async () => {
    // Prepare
    const advisory = (id: string, memoryMb: number) =>
      JSON.stringify({
        ...JSON.parse(body(id, memoryMb)),
        advisory: true,
        candidates: [{ host: 'cmp0', nodename: 'cmp0' }, { host: 'elsewhere' }],
      });
    // Act
    const fits = await call(advisory('u-adv', 2048));
    const none = await call(advisory('u-adv-huge', 64_000));
    // Assess
    expect(fits.status).toBe(200);
    expect(fits.headers).toMatchObject({ 'x-placid-advisory': 'true', 'x-placid-request-id': 'u-adv' });
    expect(fits.body).toMatchObject({
      advisory: true,
      candidates: [{ host: 'cmp0', nodename: 'cmp0', passes: true }],
      unknown: [{ host: 'elsewhere', nodename: 'elsewhere' }],
    });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({
      candidates: [{ host: 'cmp0', passes: false }],
      error: { type: 'NoValidHost' },
    });
    expect(await usedRamOf('cmp0')).toBe(0);
  });

  it('answers 400 naming the candidate field that is wrong', async () => {
    // Act
    const answer = await call(
      JSON.stringify({ ...JSON.parse(body('u-adv-bad')), advisory: true, candidates: [{}] }),
    );
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toContain('candidates[0].host');
  });
});

describe('the schedule Function URL under hostile requests (issue 28)', () => {
  it('percent-encodes a request id a header cannot hold, on the decision and on its replay', async () => {
    // Act
    const first = await call(body('req-€1'));
    const replay = await call(body('req-€1'));
    // Assess: a header value is Latin-1 at most; the id decodes back
    for (const answer of [first, replay]) {
      expect(answer.status).toBe(200);
      expect(answer.headers['x-placid-request-id']).toBe('req-%E2%82%AC1');
    }
    expect(replay.headers['x-placid-replayed']).toBe('true');
    expect(decodeURIComponent(String(first.headers['x-placid-request-id']))).toBe('req-€1');
  });

  it('keeps a plain ASCII request id as it is in the header', async () => {
    const answer = await call(body('req-plain_1.2'));
    expect(answer.headers['x-placid-request-id']).toBe('req-plain_1.2');
  });

  it('writes nothing to stderr for rejected requests (no Powertools "No application metrics" line)', async () => {
    // Prepare
    const stderr = vi.spyOn(process.stderr, 'write');
    const warn = vi.spyOn(console, 'warn');
    try {
      // Act
      const refused = await call('{"not": "a request"}');
      const notPost = await call(undefined, { method: 'GET' });
      // Assess
      expect([refused.status, notPost.status]).toEqual([400, 405]);
      const lines = [...stderr.mock.calls, ...warn.mock.calls].map((c) => String(c[0]));
      expect(lines.filter((l) => l.includes('No application metrics'))).toEqual([]);
    } finally {
      stderr.mockRestore();
      warn.mockRestore();
    }
  });

  it('caps the unknown list of a 100,000-candidate advisory request and says how many were cut', async () => {
    // Prepare
    const candidates = Array.from({ length: 100_000 }, (_, i) => ({ host: `ghost-${i}` }));
    // Act
    const answer = await call(
      JSON.stringify({ ...JSON.parse(body('u-adv-huge')), advisory: true, candidates }),
    );
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.unknown).toHaveLength(1000);
    expect(answer.body.omitted).toEqual({ candidates: 0, unknown: 99_000, refused: 0 });
  });
});

async function usedRamOf(host: string): Promise<number> {
  const stored = await db.store.getHost(host);
  return stored ? stored.state.total_usable_ram_mb - stored.state.free_ram_mb : Number.NaN;
}
