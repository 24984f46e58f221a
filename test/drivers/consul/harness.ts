/** The real Consul driver wired to a fake agent. */
import { ConsulMaintenanceSwitch } from '../../../lib/drivers/consul/ConsulMaintenanceSwitch.js';
import type { ConsulOptions } from '../../../lib/drivers/consul/options.js';
import type { ConsulAgentRef } from '../../../lib/drivers/consul/types.js';
import { FakeConsul, type FakeConsulAgent, type FakeConsulAgentOptions } from '../../fakes/consul/server.js';

export const NODE = 'web-1';
export const TOKEN = 'acl-token-for-tests';

export interface Harness {
  consul: FakeConsul;
  agent: FakeConsulAgent;
  target: ConsulAgentRef;
  maintenance: ConsulMaintenanceSwitch;
}

/** Starts one fake agent for node NODE requiring TOKEN, and a switch configured with TOKEN. */
export async function startHarness(
  options: { agent?: Omit<FakeConsulAgentOptions, 'nodeName'>; driver?: ConsulOptions } = {},
): Promise<Harness> {
  const consul = new FakeConsul({ token: TOKEN });
  const agent = await consul.addAgent(NODE, options.agent);
  // The fake agents speak plain HTTP unless given a certificate: allowing that takes `insecure`.
  const plain = options.agent?.tls === undefined;
  const maintenance = await ConsulMaintenanceSwitch.create({
    token: TOKEN,
    timeoutMs: 2_000,
    ...(plain ? { scheme: 'http', insecure: true } : {}),
    ...options.driver,
  });
  return { consul, agent, target: consul.ref(NODE), maintenance };
}

export async function stopHarness(h: Harness | undefined): Promise<void> {
  h?.maintenance.close();
  await h?.consul.close();
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

export const puts = (agent: FakeConsulAgent) => agent.requests.filter((r) => r.method === 'PUT');
