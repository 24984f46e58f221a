/** The real OpenStack client wired to the fake cloud, with a manual clock and retries that never wait. */
import type { CloudCredentials } from '../../../lib/drivers/openstack/auth.js';
import { KeystoneSession, type KeystoneSessionOptions } from '../../../lib/drivers/openstack/keystone.js';
import { NovaClient, type NovaClientOptions } from '../../../lib/drivers/openstack/nova.js';
import type { RetryPolicy } from '../../../lib/drivers/retry.js';
import { ManualClock } from '../../../lib/model/clock.js';
import { FakeOpenStack, type FakeOpenStackOptions } from '../../fakes/openstack/server.js';

export const SERVER_ID = '6f1e0b2a-5c1d-4d8e-9a51-0c7a2f3b9e11';

export interface Harness {
  fake: FakeOpenStack;
  clock: ManualClock;
  session: KeystoneSession;
  nova: NovaClient;
  /** Delays the retry policy asked for, in order. */
  sleeps: number[];
}

export interface HarnessOptions {
  fake?: Omit<FakeOpenStackOptions, 'clock'>;
  credentials?: (fake: FakeOpenStack) => CloudCredentials;
  keystone?: Omit<KeystoneSessionOptions, 'clock'>;
  nova?: NovaClientOptions;
}

/** Starts a fake cloud with server SERVER_ID on cmp-1 and a client logged in as the fake's admin. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = new ManualClock(Date.UTC(2026, 11, 1, 12));
  const fake = await FakeOpenStack.start({ clock, ...options.fake });
  fake.addServer({
    id: SERVER_ID,
    host: 'cmp-1',
    availabilityZone: 'az1',
    metadata: { role: 'web' },
    addresses: ['10.0.0.5', 'fd00::5'],
  });
  const sleeps: number[] = [];
  const retry: Partial<RetryPolicy> = {
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
  };
  const credentials = options.credentials?.(fake) ?? fake.credentials();
  const session = new KeystoneSession(credentials, { clock, ...options.keystone });
  const nova = new NovaClient(session, { retry, ...options.nova });
  return { fake, clock, session, nova, sleeps };
}

/** Runs `promise` expecting a rejection and returns the error, so its fields can be asserted. */
export async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
