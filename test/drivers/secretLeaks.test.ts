/**
 * Secrets reflected back by a server never reach an error message, in any encoding: scrubSecrets as a
 * property over generated secrets, and the real Keystone and Prometheus clients against an
 * in-process server (127.0.0.1) that echoes the request into a long error body.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { KeystoneSession } from '../../lib/drivers/openstack/keystone.js';
import { PrometheusClient } from '../../lib/drivers/prometheus/client.js';
import { basicAuthSecrets, REDACTED, scrubSecrets, secretForms } from '../../lib/drivers/redact.js';

/** Forms that cannot straddle "[redacted]" once blanked (a secret "dact" would be inside it). */
function scrubbable(secret: string): boolean {
  return !/[[\]]/.test(secret) && secretForms(secret).every((f) => !REDACTED.includes(f));
}

describe('scrubSecrets', () => {
  it('leaves no form of any secret in the text, wherever it sits', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 4, maxLength: 30 }),
        fc.string({ maxLength: 200 }),
        fc.string({ maxLength: 50 }),
        (secret, before, after) => {
          fc.pre(scrubbable(secret));
          const text = secretForms(secret)
            .map((form) => `${before}${form}${after}`)
            .join(' | ');
          const clean = scrubSecrets(text, [secret]);
          for (const form of secretForms(secret)) expect(clean).not.toContain(form);
        },
      ),
      { numRuns: 100 },
    );
  });

  it.each([0, 1, 2])(
    'blanks the secret inside a longer base64 text at offset %i, in hex of either case, and upper-cased',
    (offset) => {
      const secret = 'hunter2-Passw0rd';
      const request = `${'x'.repeat(offset)}{"password":"${secret}"}`;
      const echoes = [
        Buffer.from(request).toString('base64'),
        Buffer.from(request).toString('base64url'),
        Buffer.from(request).toString('hex'),
        Buffer.from(request).toString('hex').toUpperCase(),
        request.toUpperCase(),
      ];
      for (const echo of echoes) {
        const clean = scrubSecrets(`echo: ${echo}`, [secret]);
        expect(clean).toContain(REDACTED);
        const decoded = [
          Buffer.from(clean.replace(REDACTED, ''), 'base64').toString('latin1'),
          Buffer.from(clean.replace('echo: ', ''), 'hex').toString('latin1'),
          clean,
        ].join(' ');
        expect(decoded.toLowerCase()).not.toContain(secret.slice(3, 13).toLowerCase());
      }
    },
  );

  it("blanks a Basic header's base64 of user:password", () => {
    const header = `Basic ${Buffer.from('placid:s3cr"et\\pw').toString('base64')}`;
    expect(scrubSecrets(`echo: ${header}`, basicAuthSecrets('placid', 's3cr"et\\pw'))).toBe(
      `echo: Basic ${REDACTED}`,
    );
  });
});

/** A server that answers every request with `status` and an error naming everything it received. */
let server: Server | undefined;
afterEach(async () => {
  const running = server;
  server = undefined;
  if (running) await new Promise((resolve) => running.close(resolve));
});

async function reflectingServer(status: number, shape: (echo: string) => string): Promise<string> {
  const started = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    // The long secret below starts before the clients' 400-character message cut and ends after it.
    const echo = `${req.url} ${JSON.stringify(req.headers)} ${body}`;
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(shape(echo));
  });
  server = started;
  await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
}

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return `${(error as Error).message} ${JSON.stringify(error)}`;
  }
  throw new Error('expected the call to fail');
}

const awkward = ['pa"ss\\word-1', 'tok+en/with=url&chars é', `long-${'Z9'.repeat(300)}`];

describe('clients facing a server that echoes the request', () => {
  it.each(awkward)(
    'Keystone never shows the password %#, raw, JSON-escaped or truncated',
    async (password) => {
      // Prepare
      const url = await reflectingServer(401, (echo) => JSON.stringify({ error: { message: echo } }));
      const session = new KeystoneSession({
        authUrl: url,
        auth: {
          method: 'password',
          user: { name: 'admin', domain: { id: 'default' } },
          password,
          project: { name: 'admin', domain: { id: 'default' } },
        },
      });
      // Act
      const message = await failure(session.token());
      // Assess
      for (const form of secretForms(password)) expect(message).not.toContain(form);
      for (const piece of [password.slice(0, 12), password.slice(-12)]) expect(message).not.toContain(piece);
    },
  );

  it.each(awkward)('Prometheus never shows a Basic password %# or its header', async (password) => {
    // Prepare
    const url = await reflectingServer(400, (echo) =>
      JSON.stringify({ status: 'error', errorType: 'bad_data', error: echo }),
    );
    const client = new PrometheusClient({ url, auth: { kind: 'basic', username: 'placid', password } });
    // Act
    const message = await failure(client.instantQuery('up', new Date('2026-12-01T12:00:00Z')));
    // Assess
    const header = Buffer.from(`placid:${password}`).toString('base64');
    expect(message).not.toContain(header.slice(0, 16));
    for (const form of secretForms(password)) expect(message).not.toContain(form);
  });

  it.each(awkward)('Prometheus never shows a bearer token %#', async (token) => {
    const url = await reflectingServer(401, (echo) => echo);
    const client = new PrometheusClient({ url, auth: { kind: 'bearer', token } });
    const message = await failure(client.instantQuery('up', new Date('2026-12-01T12:00:00Z')));
    for (const form of secretForms(token)) expect(message).not.toContain(form);
    expect(message).not.toContain(token.slice(0, 12));
  });
});

describe('secretForms', () => {
  it('copes with a lone surrogate in a secret', () => {
    expect(secretForms('ab\ud800cd')).toContain('ab\ud800cd');
  });
});
