/**
 * Rotated credentials under a running process: the real Nova client and Consul switch, built by
 * lazyDrivers from secrets that change, against the fake Keystone/Nova and a fake Consul agent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConsulPermissionError } from '../../lib/drivers/consul/errors.js';
import { envSecrets } from '../../lib/drivers/credentials.js';
import { KeystoneAuthError } from '../../lib/drivers/openstack/errors.js';
import { reconnectingAfter, rotatingDriver } from '../../lib/drivers/rotation.js';
import { lazyDrivers } from '../../lib/workflow/drivers.js';
import { FakeConsul } from '../fakes/consul/server.js';
import { FakeKubernetesServer } from '../fakes/kubernetes/server.js';
import {
  FAKE_ADMIN,
  FakeOpenStack as Fake,
  type FakeOpenStack,
  fakeAdminAuth,
} from '../fakes/openstack/server.js';
import { eventually } from '../helpers/eventually.js';

let nova: FakeOpenStack | undefined;
let consul: FakeConsul | undefined;
afterEach(async () => {
  await nova?.close();
  await consul?.close();
  nova = undefined;
  consul = undefined;
});

const names = { nova: 'openstack', kubernetes: 'kubernetes', consul: 'consul' };
/** The fake Consul agents speak plain HTTP, which the switch allows only when told to. */
const PLAIN = { scheme: 'http', insecure: true } as const;

function cloudEntry(fake: FakeOpenStack, password: string) {
  return JSON.stringify({
    auth: fakeAdminAuth(fake.authUrl, password),
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
    const env: NodeJS.ProcessEnv = { PLACID_CONSUL_JSON: JSON.stringify({ token: 'old-token', ...PLAIN }) };
    const drivers = lazyDrivers(envSecrets(env), names);
    const switcher = await drivers.maintenance();
    await expect(switcher.status(consul.ref('web-1'))).rejects.toBeInstanceOf(ConsulPermissionError);
    // Act
    env.PLACID_CONSUL_JSON = JSON.stringify({ token: 'new-token', ...PLAIN });
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

describe('drivers replaced after a rotation', () => {
  it("closes the old Consul switch's keep-alive connection once the secret has rotated", async () => {
    // Prepare: one call over a keep-alive connection, which stays open afterwards
    consul = new FakeConsul();
    const agent = await consul.addAgent('web-1');
    let now = 0;
    const env: NodeJS.ProcessEnv = { PLACID_CONSUL_JSON: JSON.stringify({ token: 'old-token', ...PLAIN }) };
    const drivers = lazyDrivers(envSecrets(env), names, { maxAgeMs: 60_000, clock: { now: () => now } });
    await (await drivers.maintenance()).status(consul.ref('web-1'));
    expect(await agent.openConnections()).toBe(1);
    // Act: the secret rotates; after the max age the next use builds a new switch
    env.PLACID_CONSUL_JSON = JSON.stringify({ token: 'new-token', ...PLAIN });
    now = 61_000;
    const fresh = await drivers.maintenance();
    // Assess: the old switch's idle connection is gone; the new one opens its own
    await eventually(
      async () => (await agent.openConnections()) === 0,
      10_000,
      "the old switch's connection to close",
    );
    await fresh.status(consul.ref('web-1'));
    expect(await agent.openConnections()).toBe(1);
    expect([agent.requests[0]?.token, agent.requests.at(-1)?.token]).toEqual(['old-token', 'new-token']);
  });

  it("closes the old Kubernetes drainer's keep-alive connection once the token has rotated", async () => {
    // Prepare
    const k8s = await FakeKubernetesServer.start({ token: 'k8s-token' });
    try {
      k8s.cluster.addNode('worker-1');
      let now = 0;
      const env: NodeJS.ProcessEnv = { PLACID_KUBERNETES_JSON: JSON.stringify(k8s.connection()) };
      const drivers = lazyDrivers(envSecrets(env), names, { maxAgeMs: 60_000, clock: { now: () => now } });
      await (await drivers.drainer()).isCordoned('worker-1');
      expect(await k8s.openConnections()).toBe(1);
      // Act: a rotated secret (same token, so the fake still accepts it) read after the max age
      env.PLACID_KUBERNETES_JSON = JSON.stringify({ ...k8s.connection(), timeoutMs: 20_000 });
      now = 61_000;
      const fresh = await drivers.drainer();
      // Assess
      await eventually(
        async () => (await k8s.openConnections()) === 0,
        10_000,
        "the old drainer's connection to close",
      );
      expect(await fresh.isCordoned('worker-1')).toBe(false);
    } finally {
      await k8s.close();
    }
  });

  it('keeps a replaced driver open until the calls made through it have settled', async () => {
    // Prepare: a driver whose call waits until released
    let secret = 'one';
    let now = 0;
    const closed: string[] = [];
    let release: () => void = () => {};
    const get = rotatingDriver(
      async () => ({ value: secret }),
      async (s) => ({
        name: String(s.value),
        slow: () => new Promise<string>((resolve) => (release = () => resolve('done'))),
        close: () => void closed.push(String(s.value)),
      }),
      { maxAgeMs: 1_000, clock: { now: () => now } },
    );
    const old = await get();
    const call = old.slow();
    // Act: rotation while the call is in flight
    secret = 'two';
    now = 1_000;
    expect((await get()).name).toBe('two');
    await Promise.resolve();
    const whileInFlight = [...closed];
    release();
    await call;
    await eventually(() => closed.length > 0, 1_000, 'the replaced driver to close');
    // Assess
    expect(whileInFlight).toEqual([]);
    expect(closed).toEqual(['one']);
  });

  it('does not close a driver whose secret did not change', async () => {
    let now = 0;
    const closed: number[] = [];
    let made = 0;
    const get = rotatingDriver(
      async () => ({ value: 'same' }),
      async () => {
        const id = ++made;
        return { id, close: () => void closed.push(id) };
      },
      { maxAgeMs: 1_000, clock: { now: () => now } },
    );
    await get();
    now = 5_000;
    const again = await get();
    expect([again.id, made, closed]).toEqual([1, 1, []]);
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

  it('closes the value it replaces, once, and never the one in use', async () => {
    // Prepare
    let clock = 0;
    let made = 0;
    const closed: number[] = [];
    const get = reconnectingAfter(async () => ++made, {
      maxAgeMs: 1_000,
      clock: { now: () => clock },
      close: (replaced) => void closed.push(replaced),
    });
    // Act
    await get();
    await get();
    const beforeMaxAge = [...closed];
    clock = 1_000;
    const second = await get();
    await Promise.resolve();
    // Assess
    expect([beforeMaxAge, second, closed]).toEqual([[], 2, [1]]);
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
