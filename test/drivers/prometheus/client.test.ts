import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { PrometheusClient, type PrometheusClientOptions } from '../../../lib/drivers/prometheus/client.js';
import {
  PrometheusApiError,
  PrometheusNetworkError,
  PrometheusResponseError,
  PrometheusTimeoutError,
} from '../../../lib/drivers/prometheus/errors.js';
import { ConfigError, RequestError } from '../../../lib/model/errors.js';
import { FIXTURES, failure, type Reply, startFakeApi, success } from './fakeApi.js';

let api: Awaited<ReturnType<typeof startFakeApi>> | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const AT = new Date('2026-12-01T12:00:00Z');
const sleeps: number[] = [];

async function clientFor(replies: Reply[], options: Partial<PrometheusClientOptions> = {}, tls = false) {
  api = await startFakeApi(replies, tls);
  sleeps.length = 0;
  return new PrometheusClient({
    url: api.url,
    retry: { sleep: async (ms) => void sleeps.push(ms), random: () => 0.5, maxAttempts: 3 },
    ...options,
  });
}

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('PrometheusClient queries', () => {
  it('posts an instant query with its time and turns the vector into series', async () => {
    // Prepare
    const client = await clientFor([
      { body: success([{ metric: { instance: 'vm-a:9100' }, value: [1796126400, '0.25'] }]) },
    ]);
    // Act
    const result = await client.instantQuery('node_load5', AT);
    // Assess
    expect(api?.requests[0].path).toBe('/api/v1/query');
    expect(api?.requests[0].form.get('query')).toBe('node_load5');
    expect(api?.requests[0].form.get('time')).toBe('1796126400.000');
    expect(result.series).toEqual([
      { labels: { instance: 'vm-a:9100' }, points: [{ t: 1796126400000, v: 0.25 }] },
    ]);
  });

  it('posts a range query with start, end and step and reads the matrix', async () => {
    const client = await clientFor([
      {
        body: {
          status: 'success',
          data: {
            resultType: 'matrix',
            result: [
              {
                metric: { a: '1' },
                values: [
                  [1796126340, '1'],
                  [1796126400, 'NaN'],
                ],
              },
            ],
          },
        },
      },
    ]);
    const result = await client.rangeQuery('up', {
      start: new Date(AT.getTime() - 60_000),
      end: AT,
      stepSeconds: 60,
    });
    const form = api?.requests[0].form;
    expect([api?.requests[0].path, form?.get('start'), form?.get('end'), form?.get('step')]).toEqual([
      '/api/v1/query_range',
      '1796126340.000',
      '1796126400.000',
      '60',
    ]);
    expect(result.series[0].points.map((p) => p.v)).toEqual([1, Number.NaN]);
  });

  it.each([
    ['+Inf', Number.POSITIVE_INFINITY],
    ['-Inf', Number.NEGATIVE_INFINITY],
    ['1e3', 1000],
  ])('reads the sample value %s', async (text, value) => {
    const client = await clientFor([{ body: success([{ metric: {}, value: [1, text] }]) }]);
    const result = await client.instantQuery('x', AT);
    expect(result.series[0].points[0].v).toBe(value);
  });

  it('returns the warnings of a partial answer', async () => {
    const client = await clientFor([{ body: success([], ['store eu-1 unreachable: partial response']) }]);
    const result = await client.instantQuery('up', AT);
    expect(result.warnings).toEqual(['store eu-1 unreachable: partial response']);
  });

  it('refuses a range longer than Prometheus allows before sending it', async () => {
    const client = await clientFor([]);
    const start = new Date(AT.getTime() - 12_000_000);
    expect(() => client.rangeQuery('up', { start, end: AT, stepSeconds: 1 })).toThrow(RequestError);
    expect(api?.requests).toHaveLength(0);
  });

  it('rejects a URL that is not http(s) at construction', () => {
    expect(() => new PrometheusClient({ url: 'prometheus:9090' })).toThrow(ConfigError);
  });
});

describe('PrometheusClient authentication', () => {
  it('sends basic auth', async () => {
    const client = await clientFor([{}], {
      auth: { kind: 'basic', username: 'placid', password: 'pa55word' },
    });
    await client.instantQuery('up', AT);
    expect(api?.requests[0].headers.authorization).toBe(
      `Basic ${Buffer.from('placid:pa55word').toString('base64')}`,
    );
  });

  it('sends a bearer token and extra headers', async () => {
    const client = await clientFor([{}], {
      auth: { kind: 'bearer', token: 'tok-123456' },
      headers: { 'X-Scope-OrgID': 'tenant-1' },
    });
    await client.instantQuery('up', AT);
    expect(api?.requests[0].headers.authorization).toBe('Bearer tok-123456');
    expect(api?.requests[0].headers['x-scope-orgid']).toBe('tenant-1');
  });

  it('never shows the credentials when printed', async () => {
    const client = await clientFor([], { auth: { kind: 'bearer', token: 'tok-secret-999' } });
    expect(`${inspect(client)} ${JSON.stringify(client)}`).not.toContain('tok-secret-999');
  });

  it('blanks the token out of an error the server echoed', async () => {
    const client = await clientFor([{ status: 401, body: 'bad token tok-secret-999' }], {
      auth: { kind: 'bearer', token: 'tok-secret-999' },
    });
    const error = await caught(client.instantQuery('up', AT));
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain('tok-secret-999');
  });
});

describe('PrometheusClient failures and retries', () => {
  it('retries a 503 after the Retry-After wait and then succeeds', async () => {
    const client = await clientFor([
      { status: 503, body: 'overloaded', headers: { 'Retry-After': '2' } },
      { body: success([]) },
    ]);
    const result = await client.instantQuery('up', AT);
    expect(result.series).toEqual([]);
    expect(sleeps).toEqual([2000]);
  });

  it('backs off with full jitter between retries of a 500', async () => {
    const client = await clientFor([{ status: 500, body: failure('internal', 'boom') }]);
    const error = await caught(client.instantQuery('up', AT));
    expect(error).toBeInstanceOf(PrometheusApiError);
    // random 0.5 of base 200 ms · 2^attempt.
    expect(sleeps).toEqual([100, 200]);
    expect(api?.requests).toHaveLength(3);
  });

  it('does not retry a query Prometheus calls bad_data', async () => {
    const client = await clientFor([{ status: 400, body: failure('bad_data', 'parse error at char 5') }]);
    const error = (await caught(client.instantQuery('rate(', AT))) as PrometheusApiError;
    expect([error.errorType, error.retryable, api?.requests.length]).toEqual(['bad_data', false, 1]);
    expect(error.message).toContain('parse error at char 5');
  });

  it('times out a request that never answers, and retries it', async () => {
    const client = await clientFor([{ hang: true }], { timeoutMs: 100 });
    const error = await caught(client.instantQuery('up', AT));
    expect(error).toBeInstanceOf(PrometheusTimeoutError);
    expect(api?.requests).toHaveLength(3);
  });

  it('names a 200 whose body is not the API document', async () => {
    const client = await clientFor([{ body: '<html>proxy</html>' }]);
    await expect(client.instantQuery('up', AT)).rejects.toThrow(PrometheusResponseError);
  });

  it('reports a refused connection as a network error', async () => {
    const client = await clientFor([]);
    await api?.close();
    api = undefined;
    const error = await caught(client.instantQuery('up', AT));
    expect(error).toBeInstanceOf(PrometheusNetworkError);
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('PrometheusClient TLS', () => {
  const ca = readFileSync(join(FIXTURES, 'loopback.crt'), 'utf8');

  it('trusts a server whose certificate the configured CA signed', async () => {
    const client = await clientFor([{ body: success([]) }], { tls: { ca } }, true);
    await expect(client.instantQuery('up', AT)).resolves.toEqual({ series: [], warnings: [] });
  });

  it('refuses an untrusted certificate without retrying', async () => {
    const client = await clientFor([{ body: success([]) }], {}, true);
    const error = (await caught(client.instantQuery('up', AT))) as PrometheusNetworkError;
    expect(error).toBeInstanceOf(PrometheusNetworkError);
    expect([error.retryable, api?.requests.length]).toEqual([false, 0]);
  });

  it('accepts any certificate when told to skip verification', async () => {
    const client = await clientFor([{ body: success([]) }], { tls: { insecureSkipVerify: true } }, true);
    await expect(client.instantQuery('up', AT)).resolves.toEqual({ series: [], warnings: [] });
  });
});
