/**
 * Credentials that lack a permission, through the synthesized state machine and the real clients:
 * a Nova user without the admin role, a Consul token that lost node:write. Each must fail clearly
 * under its own error name, neither quietly Deferred nor retried for an hour.
 */
import { describe, expect, it } from 'vitest';
import { expectCleanEnd, K8S_NODE, migrationsTo, recordOf, SOURCE, useHarness, VM } from './harness.js';

const fixture = useHarness();

describe('missing permissions', () => {
  it('fails as NovaPermissionError, not Deferred, when the Nova user lacks the admin role', async () => {
    // Prepare
    const h = await fixture.start({ novaMember: true });
    const migration = h.migration();
    // Act
    const run = await h.run(migration);
    // Assess
    expect([run.status, run.error]).toEqual(['FAILED', 'NovaPermissionError']);
    const record = await recordOf(h, migration);
    expect(record.status).toBe('failed');
    expect(record.cause).toContain('OS-EXT-SRV-ATTR:host');
    expect(record.cause).toContain('docs/deploy.md');
    expect(run.steps).not.toContain('Drain');
    expect(migrationsTo(h)).toEqual([]);
    await expectCleanEnd(h, migration);
  });

  it('fails as NovaRequestError "could not be found" for another project’s server, as real Nova answers a non-admin', async () => {
    // Prepare: the VM belongs to the admin's project; the workflow logs in as a member of another.
    const h = await fixture.start({ novaMember: true });
    h.nova.deleteServer(VM);
    h.nova.addServer({ id: VM, host: SOURCE });
    const migration = h.migration();
    // Act
    const run = await h.run(migration);
    // Assess
    expect([run.status, run.error]).toEqual(['FAILED', 'NovaRequestError']);
    expect(run.cause).toContain(`Instance ${VM} could not be found.`);
    expect(run.steps).not.toContain('Drain');
    await expectCleanEnd(h, migration);
  });

  it('ends the rollback at once in CleanupFailed when the Consul token lost node:write', async () => {
    // Prepare
    const h = await fixture.start();
    const migration = h.migration();
    // Act: the token is revoked while the VM is away; undrain and rollback both get 403.
    const run = await h.run(migration, {
      beforeStep: (request) => {
        if (request.step === 'undrain') {
          h.agent.injectFault({
            kind: 'status',
            status: 403,
            path: '/v1/agent/maintenance',
            times: 'forever',
          });
        }
      },
    });
    // Assess
    expect([run.status, run.error]).toEqual(['FAILED', 'CleanupFailed']);
    expect(run.steps.filter((s) => s === 'Rollback')).toHaveLength(1);
    const record = await recordOf(h, migration);
    expect(record.status).toBe('succeeded');
    expect(record.cleanup_problems?.join(' ')).toMatch(/lacks node:write on node web-1/);
    expect(h.agent.inMaintenance).toBe(true);
    expect(h.k8s.cluster.node(K8S_NODE)?.unschedulable).toBe(false);
  });
});
