import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type OpenStackApiError,
  OpenStackNetworkError,
  OpenStackResponseError,
} from '../../../lib/drivers/openstack/errors.js';
import { type FetchLike, parseBody, sendRequest } from '../../../lib/drivers/openstack/http.js';

function replying(status: number, body: string, headers: Record<string, string> = {}): FetchLike {
  return async () => new Response(body === '' ? null : body, { status, headers });
}

const call = {
  service: 'compute' as const,
  method: 'GET' as const,
  url: 'http://nova/v2.1/servers/s1?x=1',
  timeoutMs: 1_000,
};

describe('sendRequest', () => {
  it('parses a JSON body', async () => {
    const response = await sendRequest({ ...call, fetch: replying(200, '{"a":1}') });
    expect(response.body).toEqual({ a: 1 });
  });

  it('treats an empty body as undefined', async () => {
    const response = await sendRequest({ ...call, fetch: replying(202, '') });
    expect(response.body).toBeUndefined();
  });

  it('rejects a 2xx body that is not JSON', async () => {
    await expect(sendRequest({ ...call, fetch: replying(200, '<html>') })).rejects.toThrow(
      OpenStackResponseError,
    );
  });

  it.each([
    [
      'a Nova fault',
      '{"itemNotFound": {"code": 404, "message": "Instance s1 could not be found."}}',
      'Instance s1 could not be found.',
    ],
    [
      'a Keystone error',
      '{"error": {"code": 404, "title": "Not Found", "message": "no such user"}}',
      'no such user',
    ],
    ['a proxy page', '<html> Not   Found </html>', '<html> Not Found </html>'],
    ['an empty body', '', 'HTTP 404'],
  ])('takes the explanation from %s', async (_name, body, message) => {
    const error = (await sendRequest({ ...call, fetch: replying(404, body) }).catch(
      (e) => e,
    )) as OpenStackApiError;
    expect(error.apiMessage).toBe(message);
  });

  it('names the path and query but not the host', async () => {
    const error = (await sendRequest({ ...call, fetch: replying(500, '') }).catch(
      (e) => e,
    )) as OpenStackApiError;
    expect(error.path).toBe('/v2.1/servers/s1?x=1');
    expect(error.message).not.toContain('http://nova');
  });

  it('reports a refused connection as a retryable OpenStackNetworkError', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await sendRequest({ ...call, url: `http://127.0.0.1:${port}/v2.1` }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenStackNetworkError);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('parseBody', () => {
  it('names the fields that did not match', () => {
    const schema = z.object({ server: z.object({ id: z.string() }) });
    const site = { service: 'compute' as const, method: 'GET', path: '/servers/s1' };
    expect(() =>
      parseBody(schema, { status: 200, headers: new Headers(), body: { server: {} } }, site),
    ).toThrow(/server\.id/);
  });
});
