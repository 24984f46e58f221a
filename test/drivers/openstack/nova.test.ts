import { afterEach, describe, expect, it } from 'vitest';
import {
  MicroversionNotSupportedError,
  NovaConflictError,
  type OpenStackApiError,
  OpenStackBadRequestError,
  OpenStackForbiddenError,
  OpenStackNotFoundError,
  OpenStackTimeoutError,
  OpenStackUnavailableError,
} from '../../../lib/drivers/openstack/errors.js';
import { NOVA_DEFAULT_MICROVERSION } from '../../../lib/drivers/openstack/microversion.js';
import { NovaClient } from '../../../lib/drivers/openstack/nova.js';
import { ConfigError, RequestError } from '../../../lib/model/errors.js';
import { FAKE_ADMIN } from '../../fakes/openstack/server.js';
import { caught, type Harness, SERVER_ID, startHarness } from './harness.js';

let h: Harness;
afterEach(async () => {
  await h?.fake.close();
});

describe('NovaClient requests', () => {
  it('sends the token and both microversion headers', async () => {
    h = await startHarness();
    await h.nova.getServer(SERVER_ID);
    const [request] = h.fake.requests().filter((r) => r.route === 'getServer');
    expect(request.headers['openstack-api-version']).toBe(`compute ${NOVA_DEFAULT_MICROVERSION}`);
    expect(request.headers['x-openstack-nova-api-version']).toBe(NOVA_DEFAULT_MICROVERSION);
    expect(request.headers['x-auth-token']).toMatch(/^fake-token-/);
  });

  it('sends a configured microversion', async () => {
    h = await startHarness({ nova: { microversion: '2.80' } });
    await h.nova.getServer(SERVER_ID);
    const [request] = h.fake.requests().filter((r) => r.route === 'getServer');
    expect(request.headers['openstack-api-version']).toBe('compute 2.80');
  });

  it.each([['2.24'], ['2.9'], ['3.0'], ['latest'], ['2.x']])(
    'rejects microversion %s at construction',
    (version) => {
      expect(() => new NovaClient({} as never, { microversion: version })).toThrow(ConfigError);
    },
  );

  it('raises MicroversionNotSupportedError when the cloud is older than the microversion', async () => {
    h = await startHarness({ fake: { maxMicroversion: '2.60' } });
    const error = await caught(h.nova.getServer(SERVER_ID));
    expect(error).toBeInstanceOf(MicroversionNotSupportedError);
    expect(error.message).toContain('maximum is 2.60');
  });

  it('calls the endpoint of the configured interface and region', async () => {
    h = await startHarness({
      fake: { regions: ['RegionOne', 'RegionTwo'] },
      nova: { region: 'RegionTwo', interface: 'internal' },
    });
    await h.nova.getServer(SERVER_ID);
    const [request] = h.fake.requests().filter((r) => r.route === 'getServer');
    expect([request.region, request.interface]).toEqual(['RegionTwo', 'internal']);
  });

  it('reads a server into camelCase fields', async () => {
    h = await startHarness();
    const server = await h.nova.getServer(SERVER_ID);
    expect(server).toEqual({
      id: SERVER_ID,
      name: SERVER_ID,
      status: 'ACTIVE',
      host: 'cmp-1',
      hypervisorHostname: 'cmp-1',
      availabilityZone: 'az1',
      taskState: null,
      vmState: 'active',
      metadata: { role: 'web' },
      // Every network's addresses, what the agent looks the VM's node and Consul agent up by.
      addresses: ['10.0.0.5', 'fd00::5'],
    });
  });

  it('reads server metadata', async () => {
    h = await startHarness();
    expect(await h.nova.getServerMetadata(SERVER_ID)).toEqual({ role: 'web' });
  });

  it('posts os-migrateLive with the host and block_migration auto', async () => {
    h = await startHarness();
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    const [request] = h.fake.requests().filter((r) => r.route === 'liveMigrate');
    expect(request.method).toBe('POST');
    expect(request.path).toMatch(new RegExp(`/v2\\.1/servers/${SERVER_ID}/action$`));
    expect(h.fake.migrations()).toMatchObject([
      { serverId: SERVER_ID, sourceCompute: 'cmp-1', destCompute: 'cmp-2' },
    ]);
  });

  it('rejects an empty server id before calling Nova', async () => {
    h = await startHarness();
    await expect(h.nova.getServer(' ')).rejects.toThrow(RequestError);
    expect(h.fake.requests()).toEqual([]);
  });

  it('rejects a migration id that is not a positive integer', async () => {
    h = await startHarness();
    await expect(h.nova.abortMigration(SERVER_ID, 0)).rejects.toThrow(
      /migrationId must be a positive integer/,
    );
  });

  it('authenticates again once when Nova says the token is no longer valid', async () => {
    h = await startHarness();
    await h.nova.getServer(SERVER_ID);
    h.fake.revokeTokens();
    const server = await h.nova.getServer(SERVER_ID);
    expect(server.id).toBe(SERVER_ID);
    expect(h.fake.tokensIssued).toBe(2);
  });
});

describe('NovaClient errors', () => {
  it.each([
    [500, OpenStackUnavailableError, true],
    [503, OpenStackUnavailableError, true],
    [429, OpenStackUnavailableError, true],
    [409, NovaConflictError, false],
    [404, OpenStackNotFoundError, false],
    [400, OpenStackBadRequestError, false],
    [403, OpenStackForbiddenError, false],
  ])('turns a %i into %O with retryable %s', async (status, ErrorClass, retryable) => {
    h = await startHarness();
    h.fake.setFault('liveMigrate', { kind: 'status', status, message: 'injected' });
    const error = await caught(h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' }));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.name).toBe(ErrorClass.name);
    expect((error as OpenStackApiError).retryable).toBe(retryable);
  });

  it("says which call failed, with Nova's message and request id", async () => {
    h = await startHarness();
    h.fake.updateServer(SERVER_ID, { taskState: 'migrating' });
    const error = (await caught(h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' }))) as NovaConflictError;
    expect(error).toBeInstanceOf(NovaConflictError);
    expect([error.service, error.method, error.status]).toEqual(['compute', 'POST', 409]);
    expect(error.path).toMatch(new RegExp(`^/compute/RegionOne/public/v2\\.1/servers/${SERVER_ID}/action$`));
    expect(error.apiMessage).toContain('task_state migrating');
    expect(error.message).toMatch(/\(request req-[0-9a-f-]+\)$/);
  });

  it('reports a missing server as OpenStackNotFoundError', async () => {
    h = await startHarness();
    await expect(h.nova.getServer('no-such-server')).rejects.toThrow(OpenStackNotFoundError);
  });

  it('times out a call that never answers', async () => {
    h = await startHarness({ nova: { timeoutMs: 50 } });
    h.fake.setFault('liveMigrate', { kind: 'hang' });
    const error = await caught(h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' }));
    expect(error).toBeInstanceOf(OpenStackTimeoutError);
    expect(error.message).toContain('timed out after 50 ms');
  });

  it('keeps credentials and tokens out of every error message', async () => {
    h = await startHarness();
    const token = await h.session.token();
    h.fake.setFault('getServer', {
      kind: 'status',
      status: 500,
      message: `echo ${token} ${FAKE_ADMIN.password}`,
    });
    const error = await caught(h.nova.getServer(SERVER_ID));
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain(token);
    expect(error.message).not.toContain(FAKE_ADMIN.password);
    expect(JSON.stringify(error)).not.toContain(token);
  });
});

describe('NovaClient retries', () => {
  it('retries a GET on 503 with backoff until it succeeds', async () => {
    h = await startHarness();
    h.fake.setFault('getServer', { kind: 'status', status: 503, times: 2 });
    const server = await h.nova.getServer(SERVER_ID);
    expect(server.host).toBe('cmp-1');
    expect(h.fake.requests().filter((r) => r.route === 'getServer')).toHaveLength(3);
    expect(h.sleeps).toEqual([100, 200]);
  });

  it('retries a GET that timed out', async () => {
    h = await startHarness({ nova: { timeoutMs: 50 } });
    h.fake.setFault('getServer', { kind: 'hang', times: 1 });
    const server = await h.nova.getServer(SERVER_ID);
    expect(server.id).toBe(SERVER_ID);
    expect(h.fake.requests().filter((r) => r.route === 'getServer')).toHaveLength(2);
  });

  it('waits at least as long as Retry-After says', async () => {
    h = await startHarness();
    h.fake.setFault('listServerMigrations', { kind: 'status', status: 429, retryAfterSeconds: 2, times: 1 });
    await h.nova.listServerMigrations(SERVER_ID);
    expect(h.sleeps).toEqual([2000]);
  });

  it('gives up after the last attempt with the last error', async () => {
    h = await startHarness({ nova: { retry: { maxAttempts: 2 } } });
    h.fake.setFault('getServer', { kind: 'status', status: 503 });
    await expect(h.nova.getServer(SERVER_ID)).rejects.toThrow(OpenStackUnavailableError);
    expect(h.fake.requests().filter((r) => r.route === 'getServer')).toHaveLength(2);
  });

  it('does not retry a GET that failed for good', async () => {
    h = await startHarness();
    h.fake.setFault('getServer', { kind: 'status', status: 404 });
    await expect(h.nova.getServer(SERVER_ID)).rejects.toThrow(OpenStackNotFoundError);
    expect(h.fake.requests().filter((r) => r.route === 'getServer')).toHaveLength(1);
  });

  it('never retries an action, even on 503', async () => {
    h = await startHarness();
    h.fake.setFault('liveMigrate', { kind: 'status', status: 503, times: 1 });
    await expect(h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' })).rejects.toThrow(OpenStackUnavailableError);
    expect(h.fake.requests().filter((r) => r.route === 'liveMigrate')).toHaveLength(1);
  });
});
