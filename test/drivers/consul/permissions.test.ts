/**
 * The ACL permissions the Consul driver needs, checked against a fake agent that enforces them the
 * way Consul's API docs list them: /v1/agent/self needs agent:read, /v1/agent/checks node:read,
 * PUT /v1/agent/maintenance node:write. docs/deploy.md documents exactly these.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConsulPermissionError } from '../../../lib/drivers/consul/errors.js';
import { caught, type Harness, puts, startHarness, stopHarness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await stopHarness(h);
  h = undefined;
});

describe('Consul ACL permissions', () => {
  it('switches maintenance with the documented policy: node:write and agent:read', async () => {
    // Prepare
    h = await startHarness({ agent: { permissions: ['node:write', 'agent:read'] } });
    // Act
    await h.maintenance.enable(h.target, 'placid m-1');
    await h.maintenance.disable(h.target);
    // Assess
    expect(puts(h.agent)).toHaveLength(2);
    expect(h.agent.inMaintenance).toBe(false);
  });

  it('needs only node:write with verifyNodeName off', async () => {
    // Prepare
    h = await startHarness({ agent: { permissions: ['node:write'] }, driver: { verifyNodeName: false } });
    // Act
    const outcome = await h.maintenance.enable(h.target, 'placid m-1');
    // Assess
    expect(outcome.outcome).toBe('enabled');
  });

  it('names agent:read and the way out when the token has node:write only', async () => {
    // Prepare
    h = await startHarness({ agent: { permissions: ['node:write'] } });
    // Act
    const error = await caught(h.maintenance.enable(h.target, 'placid m-1'));
    // Assess
    expect(error).toBeInstanceOf(ConsulPermissionError);
    expect((error as ConsulPermissionError).retryable).toBe(false);
    expect(error.message).toContain('lacks agent:read on node web-1');
    expect(error.message).toContain('verifyNodeName: false');
    expect(puts(h.agent)).toEqual([]);
  });

  it('names node:write when the token may only read', async () => {
    // Prepare
    h = await startHarness({ agent: { permissions: ['node:read', 'agent:read'] } });
    // Act
    const error = await caught(h.maintenance.enable(h.target, 'placid m-1'));
    // Assess
    expect(error).toBeInstanceOf(ConsulPermissionError);
    expect(error.message).toMatch(
      /enable maintenance on agent .*: the ACL token lacks node:write on node web-1/,
    );
    expect(h.agent.inMaintenance).toBe(false);
  });
});
