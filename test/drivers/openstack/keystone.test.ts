import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EndpointNotFoundError,
  KeystoneAuthError,
  OpenStackUnavailableError,
} from '../../../lib/drivers/openstack/errors.js';
import { KeystoneSession } from '../../../lib/drivers/openstack/keystone.js';
import { ConfigError } from '../../../lib/model/errors.js';
import { FAKE_ADMIN, FAKE_APP_CREDENTIAL } from '../../fakes/openstack/server.js';
import { caught, type Harness, startHarness } from './harness.js';

let h: Harness;
afterEach(async () => {
  await h?.fake.close();
});

const MINUTE = 60_000;

describe('KeystoneSession tokens', () => {
  it('returns the X-Subject-Token and reuses it while it is fresh', async () => {
    h = await startHarness();
    const first = await h.session.token();
    h.clock.advance(54 * MINUTE);
    const second = await h.session.token();
    expect(first).toMatch(/^fake-token-/);
    expect(second).toBe(first);
    expect(h.fake.tokensIssued).toBe(1);
  });

  it('re-authenticates once the token is within the refresh margin of expiry', async () => {
    h = await startHarness();
    const first = await h.session.token();
    h.clock.advance(55 * MINUTE + 1);
    const second = await h.session.token();
    expect(second).not.toBe(first);
    expect(h.fake.tokensIssued).toBe(2);
  });

  it('caps the margin at half the lifetime of a short-lived token', async () => {
    h = await startHarness({ fake: { tokenTtlMs: 4 * MINUTE } });
    const first = await h.session.token();
    h.clock.advance(2 * MINUTE - 1);
    expect(await h.session.token()).toBe(first);
    h.clock.advance(1);
    expect(await h.session.token()).not.toBe(first);
  });

  it('shares one authentication between concurrent callers', async () => {
    h = await startHarness();
    const tokens = await Promise.all([h.session.token(), h.session.token(), h.session.token()]);
    expect(new Set(tokens).size).toBe(1);
    expect(h.fake.tokensIssued).toBe(1);
  });

  it('authenticates again after the cached token is invalidated', async () => {
    h = await startHarness();
    const first = await h.session.token();
    h.session.invalidate(first);
    expect(await h.session.token()).not.toBe(first);
  });

  it.each([
    ['application credential by id', { credential: { id: FAKE_APP_CREDENTIAL.id } }],
    [
      'application credential by name and user',
      {
        credential: {
          name: FAKE_APP_CREDENTIAL.name,
          user: { name: FAKE_ADMIN.name, domain: { name: 'Default' } },
        },
      },
    ],
  ])('authenticates with an %s', async (_name, ref) => {
    h = await startHarness({
      credentials: (fake) => ({
        authUrl: fake.authUrl,
        auth: { method: 'application_credential', secret: FAKE_APP_CREDENTIAL.secret, ...ref },
      }),
    });
    expect(await h.session.token()).toMatch(/^fake-token-/);
  });

  it('authenticates with a user id and project id', async () => {
    h = await startHarness({
      credentials: (fake) => ({
        authUrl: `${fake.url}/identity`,
        auth: {
          method: 'password',
          user: { id: FAKE_ADMIN.id },
          password: FAKE_ADMIN.password,
          project: { id: FAKE_ADMIN.projectId },
        },
      }),
    });
    expect(await h.session.token()).toMatch(/^fake-token-/);
  });

  it('raises KeystoneAuthError for a wrong password, without the password in it', async () => {
    h = await startHarness();
    const credentials = h.fake.credentials();
    if (credentials.auth.method !== 'password') throw new Error('expected password credentials');
    const session = new KeystoneSession({
      ...credentials,
      auth: { ...credentials.auth, password: 'wrong-pass-123' },
    });
    const error = await caught(session.token());
    expect(error).toBeInstanceOf(KeystoneAuthError);
    expect(error.message).toContain('401');
    expect(`${error.message} ${inspect(error)}`).not.toContain('wrong-pass-123');
  });

  it('keeps a Keystone 503 retryable instead of calling it bad credentials', async () => {
    h = await startHarness();
    h.fake.setFault('auth', { kind: 'status', status: 503, times: 1 });
    const error = await caught(h.session.token());
    expect(error).toBeInstanceOf(OpenStackUnavailableError);
    expect((error as OpenStackUnavailableError).retryable).toBe(true);
  });

  it('forgets a failed authentication so the next call tries again', async () => {
    h = await startHarness();
    h.fake.setFault('auth', { kind: 'status', status: 503, times: 1 });
    await caught(h.session.token());
    expect(await h.session.token()).toMatch(/^fake-token-/);
  });

  it.each([
    ['an authUrl that is not a URL', { authUrl: 'keystone:5000/v3' }, {}],
    ['a negative timeout', {}, { timeoutMs: -1 }],
    ['a margin that is not a number', {}, { refreshMarginMs: Number.NaN }],
  ])('rejects %s at construction', async (_name, credentials, options) => {
    h = await startHarness();
    expect(() => new KeystoneSession({ ...h.fake.credentials(), ...credentials }, options)).toThrow(
      ConfigError,
    );
  });

  it('prints without its credentials', async () => {
    h = await startHarness();
    const shown = `${inspect(h.session)} ${JSON.stringify(h.session)}`;
    expect(shown).toContain('[redacted]');
    expect(shown).not.toContain(FAKE_ADMIN.password);
  });
});

describe('KeystoneSession catalog', () => {
  it.each([
    ['public', 'public'],
    ['internal', 'internal'],
    ['admin', 'admin'],
  ] as const)('selects the %s compute endpoint', async (iface, expected) => {
    h = await startHarness();
    const url = await h.session.endpoint({ type: 'compute', interface: iface });
    expect(url).toBe(h.fake.computeUrl('RegionOne', expected));
  });

  it('defaults to the public interface', async () => {
    h = await startHarness();
    expect(await h.session.endpoint({ type: 'compute' })).toBe(h.fake.computeUrl('RegionOne', 'public'));
  });

  it('selects the region asked for when the catalog has several', async () => {
    h = await startHarness({ fake: { regions: ['RegionOne', 'RegionTwo'] } });
    const url = await h.session.endpoint({ type: 'compute', region: 'RegionTwo' });
    expect(url).toBe(h.fake.computeUrl('RegionTwo', 'public'));
  });

  it("uses the credentials' region and interface when the query names none", async () => {
    h = await startHarness({
      fake: { regions: ['RegionOne', 'RegionTwo'] },
      credentials: (fake) => ({ ...fake.credentials(), region: 'RegionTwo', interface: 'internal' }),
    });
    expect(await h.session.endpoint({ type: 'compute' })).toBe(h.fake.computeUrl('RegionTwo', 'internal'));
  });

  it('refuses to guess between regions', async () => {
    h = await startHarness({ fake: { regions: ['RegionOne', 'RegionTwo'] } });
    const error = await caught(h.session.endpoint({ type: 'compute' }));
    expect(error).toBeInstanceOf(EndpointNotFoundError);
    expect(error.message).toContain('RegionOne, RegionTwo');
  });

  it('names the regions it has when the asked one is missing', async () => {
    h = await startHarness();
    const error = await caught(h.session.endpoint({ type: 'compute', region: 'RegionNine' }));
    expect(error).toBeInstanceOf(EndpointNotFoundError);
    expect(error.message).toMatch(/region RegionNine.*RegionOne/);
  });
});
