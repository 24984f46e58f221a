import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConsulApiError,
  ConsulNodeMismatchError,
  ConsulPermissionError,
  ConsulUnreachableError,
} from '../../../lib/drivers/consul/errors.js';
import { ValidationError } from '../../../lib/model/errors.js';
import { caught, type Harness, NODE, puts, startHarness, stopHarness, TOKEN } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await stopHarness(h);
  h = undefined;
});

describe('ConsulMaintenanceSwitch', () => {
  it('enables node maintenance with the given reason', async () => {
    h = await startHarness();
    const outcome = await h.maintenance.enable(h.target, 'placid migration m-42');
    expect(outcome).toEqual({ outcome: 'enabled', reason: 'placid migration m-42' });
    expect(h.agent.maintenanceReason).toBe('placid migration m-42');
  });

  it('sends PUT /v1/agent/maintenance with enable and reason, and the ACL token on every request', async () => {
    h = await startHarness();
    await h.maintenance.enable(h.target, 'placid migration m-42');
    expect(puts(h.agent).map((r) => r.path)).toEqual([
      '/v1/agent/maintenance?enable=true&reason=placid%20migration%20m-42',
    ]);
    expect(h.agent.requests.every((r) => r.token === TOKEN)).toBe(true);
  });

  it('leaves maintenance someone else enabled alone, reporting their reason', async () => {
    h = await startHarness();
    h.agent.maintenanceReason = 'operator: disk swap';
    const outcome = await h.maintenance.enable(h.target, 'placid migration m-42');
    expect(outcome).toEqual({ outcome: 'already-enabled', reason: 'operator: disk swap' });
    expect(puts(h.agent)).toHaveLength(0);
  });

  it('disables maintenance', async () => {
    h = await startHarness();
    h.agent.maintenanceReason = 'placid migration m-42';
    expect(await h.maintenance.disable(h.target)).toBe('disabled');
    expect(h.agent.inMaintenance).toBe(false);
    expect(puts(h.agent).map((r) => r.path)).toEqual(['/v1/agent/maintenance?enable=false']);
  });

  it('succeeds without a request when disabling a node not in maintenance', async () => {
    h = await startHarness();
    expect(await h.maintenance.disable(h.target)).toBe('already-disabled');
    expect(puts(h.agent)).toHaveLength(0);
  });

  it.each([
    ['in maintenance', 'placid migration m-42', { enabled: true, reason: 'placid migration m-42' }],
    ['not in maintenance', null, { enabled: false, reason: null }],
  ])('reports the status of a node %s from its _node_maintenance check', async (_label, reason, expected) => {
    h = await startHarness();
    h.agent.maintenanceReason = reason;
    expect(await h.maintenance.status(h.target)).toEqual(expected);
  });

  it('refuses a blank reason before sending anything', async () => {
    h = await startHarness();
    const error = await caught(h.maintenance.enable(h.target, '  '));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('reason');
    expect(h.agent.requests).toHaveLength(0);
  });

  it('refuses to touch an agent that belongs to another node', async () => {
    h = await startHarness();
    const error = (await caught(
      h.maintenance.enable({ ...h.target, node: 'db-7' }, 'm-42'),
    )) as ConsulNodeMismatchError;
    expect(error).toBeInstanceOf(ConsulNodeMismatchError);
    expect(error.name).toBe('ConsulNodeMismatchError');
    expect(error.message).toContain(`is node ${NODE}, not db-7`);
    expect(h.agent.inMaintenance).toBe(false);
  });

  it('does not print its ACL token when logged', async () => {
    h = await startHarness();
    expect(inspect(h.maintenance, { depth: 10 })).not.toContain(TOKEN);
    expect(JSON.stringify(h.maintenance)).not.toContain(TOKEN);
  });

  it('skips the identity check when verifyNodeName is off', async () => {
    h = await startHarness({ driver: { verifyNodeName: false } });
    await h.maintenance.status(h.target);
    expect(h.agent.requests.map((r) => r.path)).toEqual(['/v1/agent/checks']);
  });
});

describe('ConsulMaintenanceSwitch failures', () => {
  it('turns a rejected ACL token into a non-retryable ConsulPermissionError', async () => {
    h = await startHarness({ driver: { token: 'wrong-token' } });
    const error = (await caught(h.maintenance.enable(h.target, 'm-42'))) as ConsulPermissionError;
    expect(error).toBeInstanceOf(ConsulPermissionError);
    expect(error.name).toBe('ConsulPermissionError');
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain('wrong-token');
  });

  it.each([500, 503])('turns HTTP %i into a retryable ConsulApiError', async (status) => {
    h = await startHarness();
    h.agent.injectFault({ kind: 'status', status, path: '/v1/agent/maintenance' });
    const error = (await caught(h.maintenance.enable(h.target, 'm-42'))) as ConsulApiError;
    expect(error).toBeInstanceOf(ConsulApiError);
    expect(error.name).toBe('ConsulApiError');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('enable maintenance');
  });

  it.each([
    ['drops the connection', { kind: 'unreachable' } as const],
    ['never answers', { kind: 'hang' } as const],
  ])('turns an agent that %s into a retryable ConsulUnreachableError', async (_label, fault) => {
    h = await startHarness({ driver: { timeoutMs: 100 } });
    h.agent.injectFault(fault);
    const error = (await caught(h.maintenance.status(h.target))) as ConsulUnreachableError;
    expect(error).toBeInstanceOf(ConsulUnreachableError);
    expect(error.name).toBe('ConsulUnreachableError');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain(h.target.address);
  });

  it('turns a refused connection into a ConsulUnreachableError', async () => {
    h = await startHarness();
    await h.agent.close();
    const error = await caught(h.maintenance.disable(h.target));
    expect(error).toBeInstanceOf(ConsulUnreachableError);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('recognises its own earlier effect when an enable whose reply was lost is retried', async () => {
    h = await startHarness();
    h.agent.injectFault({ kind: 'lose-reply', path: '/v1/agent/maintenance' });
    const lost = await caught(h.maintenance.enable(h.target, 'm-42'));
    const retried = await h.maintenance.enable(h.target, 'm-42');
    expect(lost).toBeInstanceOf(ConsulUnreachableError);
    expect(retried).toEqual({ outcome: 'already-enabled', reason: 'm-42' });
  });
});
