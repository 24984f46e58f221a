/**
 * A Keystone that echoes the authentication request back in its 401, encoded (base64 at each of
 * the three alignments, hex in either case) or upper-cased: the password reaches neither the error
 * the workflow fails with nor the migration record it stores.
 */
import { describe, expect, it } from 'vitest';
import { FAKE_ADMIN } from '../fakes/openstack/server.js';
import { recordOf, useHarness } from './harness.js';

const fixture = useHarness();
const PASSWORD = FAKE_ADMIN.password;
const request = JSON.stringify({ password: { user: { name: FAKE_ADMIN.name, password: PASSWORD } } });

const echoes: Array<[string, string]> = [
  ['base64', Buffer.from(request).toString('base64')],
  ['base64, shifted by one byte', Buffer.from(`x${request}`).toString('base64')],
  ['base64, shifted by two bytes', Buffer.from(`xy${request}`).toString('base64')],
  ['hex', Buffer.from(request).toString('hex')],
  ['upper-case hex', Buffer.from(request).toString('hex').toUpperCase()],
  ['upper-cased', request.toUpperCase()],
];

/** Every trace of the password a reader could decode: as is, hex, or base64 at any alignment. */
function traces(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const aligned = [0, 1, 2].map((pad) =>
    Buffer.concat([Buffer.alloc(pad), bytes])
      .toString('base64')
      .slice(pad + 1, -2),
  );
  return [secret, bytes.toString('hex'), ...aligned];
}

describe('a Keystone 401 that echoes the request', () => {
  it.each(echoes)('%s: the password is neither shown nor stored', async (_, echo) => {
    // Prepare
    const h = await fixture.start();
    h.nova.setFault('auth', { kind: 'status', status: 401, message: `bad request: ${echo}` });
    const migration = h.migration();
    // Act
    const run = await h.run(migration);
    const record = await recordOf(h, migration);
    // Assess
    expect(run.status).toBe('FAILED');
    const seen = `${JSON.stringify(run)} ${JSON.stringify(record)}`.toLowerCase();
    expect(seen).toContain('keystone');
    for (const trace of traces(PASSWORD)) {
      expect(seen).not.toContain(trace.toLowerCase());
    }
  });
});
