/**
 * Rotated credentials under a running process: the real Nova client and Consul switch, built by
 * lazyDrivers from secrets that change, against the fake Keystone/Nova and a fake Consul agent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConsulPermissionError } from '../../lib/drivers/consul/errors.js';
import { envSecrets } from '../../lib/drivers/credentials.js';
import { KeystoneAuthError } from '../../lib/drivers/openstack/errors.js';
import { reconnectingAfter } from '../../lib/drivers/rotation.js';
import { FakeConsul } from '../../lib/local/fakes/consul/server.js';
import {
  FAKE_ADMIN,
  FakeOpenStack as Fake,
  type FakeOpenStack,
} from '../../lib/local/fakes/openstack/server.js';
import { lazyDrivers } from '../../lib/workflow/drivers.js';

let nova: FakeOpenStack | undefined;
let consul: FakeConsul | undefined;
afterEach(async () => {
  await nova?.close();
  await consul?.close();
  nova = undefined;
  consul = undefined;
});

const names = { nova: 'openstack', kubernetes: 'kubernetes', consul: 'consul' };

function cloudEntry(fake: FakeOpenStack, password: string) {
  return JSON.stringify({
    auth: {
      auth_url: fake.authUrl,
      username: FAKE_ADMIN.name,
      password,
      user_domain_name: FAKE_ADMIN.domain,
      project_name: FAKE_ADMIN.projectName,
      project_domain_name: FAKE_ADMIN.domain,
    },
  });
}

describe('rotated credentials', () => {
  it('re-reads the OpenStack secret when Keystone refuses the old password, and goes on', async () => {
    // Prepare
    const admin = { ...FAKE_ADMIN };
    nova = await Fake.start({ users: [admin] });
    nova.addServer({ id: 'vm-1', host: 'cmp-1' });
    const env: NodeJS.ProcessEnv = { PLACID_OPENSTACK_JSON: cloudEntry(nova, admin.password) };
    const drivers = lazyDrivers(envSecrets(env), names);
    expect((await (await drivers.nova()).getServer('vm-1')).host).toBe('cmp-1');
    // Act: the password is rotated in Keystone and in the secret; the old tokens are revoked.
    admin.password = 'rotated-password-2';
    env.PLACID_OPENSTACK_JSON = cloudEntry(nova, admin.password);
    nova.revokeTokens();
    const server = await (await drivers.nova()).getServer('vm-1');
    // Assess
    expect(server.host).toBe('cmp-1');
  });

  it('reports the refusal when the secret has not changed: a real credential problem', async () => {
    // Prepare
    const admin = { ...FAKE_ADMIN };
    nova = await Fake.start({ users: [admin] });
    nova.addServer({ id: 'vm-1', host: 'cmp-1' });
    const env: NodeJS.ProcessEnv = { PLACID_OPENSTACK_JSON: cloudEntry(nova, admin.password) };
    const drivers = lazyDrivers(envSecrets(env), names);
    await (await drivers.nova()).getServer('vm-1');
    // Act
    admin.password = 'changed-in-keystone-only';
    nova.revokeTokens();
    const error = await (await drivers.nova()).getServer('vm-1').catch((e: unknown) => e);
    // Assess
    expect(error).toBeInstanceOf(KeystoneAuthError);
  });

  it('re-reads the Consul token after a 403 and retries with the new one', async () => {
    // Prepare: the agent now accepts only the new token.
    consul = new FakeConsul({ token: 'new-token' });
    await consul.addAgent('web-1');
    const env: NodeJS.ProcessEnv = { PLACID_CONSUL_JSON: JSON.stringify({ token: 'old-token' }) };
    const drivers = lazyDrivers(envSecrets(env), names);
    const switcher = await drivers.maintenance();
    await expect(switcher.status(consul.ref('web-1'))).rejects.toBeInstanceOf(ConsulPermissionError);
    // Act
    env.PLACID_CONSUL_JSON = JSON.stringify({ token: 'new-token' });
    const status = await (await drivers.maintenance()).status(consul.ref('web-1'));
    // Assess
    expect(status).toEqual({ enabled: false, reason: null });
  });

  it('re-reads a secret after its max age even when nothing was refused', async () => {
    // Prepare
    let now = 0;
    let reads = 0;
    const secrets = {
      loadSecret: async () => {
        reads += 1;
        return { token: 't' };
      },
    };
    const drivers = lazyDrivers(secrets, names, { maxAgeMs: 60_000, clock: { now: () => now } });
    // Act
    await drivers.maintenance();
    now = 59_000;
    await drivers.maintenance();
    const beforeMaxAge = reads;
    now = 61_000;
    await drivers.maintenance();
    // Assess
    expect([beforeMaxAge, reads]).toEqual([1, 2]);
  });
});

describe('reconnectingAfter', () => {
  it('reuses the connection until it is maxAge old, then connects again', async () => {
    // Prepare
    let clock = 0;
    let made = 0;
    const get = reconnectingAfter(async () => ++made, { maxAgeMs: 1_000, clock: { now: () => clock } });
    // Act
    const early = [await get(), await get()];
    clock = 999;
    const justBefore = await get();
    clock = 1_000;
    const after = await get();
    // Assess
    expect([...early, justBefore, after]).toEqual([1, 1, 1, 2]);
  });

  it('keeps no failed connection: the next call connects again', async () => {
    // Prepare
    let calls = 0;
    const get = reconnectingAfter(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('secret not there yet');
        return 'connected';
      },
      { clock: { now: () => 0 } },
    );
    // Act
    const first = get();
    await expect(first).rejects.toThrow('secret not there yet');
    const second = await get();
    // Assess
    expect([second, calls]).toEqual(['connected', 2]);
  });
});
