import { afterEach, describe, expect, it } from 'vitest';
import { ConsulTlsError } from '../../../lib/drivers/consul/errors.js';
import { TEST_CA_CERT, TEST_SERVER_CERT, TEST_SERVER_KEY } from '../kubernetes/tlsFixture.js';
import { caught, type Harness, startHarness, stopHarness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await stopHarness(h);
  h = undefined;
});

const tls = { cert: TEST_SERVER_CERT, key: TEST_SERVER_KEY };

describe('ConsulMaintenanceSwitch over HTTPS', () => {
  it('trusts an agent certificate signed by the configured CA', async () => {
    h = await startHarness({ agent: { tls }, driver: { scheme: 'https', ca: TEST_CA_CERT } });
    await h.maintenance.enable(h.target, 'm-42');
    expect(h.agent.inMaintenance).toBe(true);
  });

  it('refuses an agent certificate it cannot verify, as a non-retryable ConsulTlsError', async () => {
    h = await startHarness({ agent: { tls }, driver: { scheme: 'https' } });
    const error = (await caught(h.maintenance.status(h.target))) as ConsulTlsError;
    expect(error).toBeInstanceOf(ConsulTlsError);
    expect(error.name).toBe('ConsulTlsError');
    expect(error.retryable).toBe(false);
  });

  it('accepts any agent certificate when skipTLSVerify is set explicitly', async () => {
    h = await startHarness({ agent: { tls }, driver: { scheme: 'https', skipTLSVerify: true } });
    expect(await h.maintenance.status(h.target)).toEqual({ enabled: false, reason: null });
  });

  it('uses https when the agent address says so', async () => {
    h = await startHarness({ agent: { tls }, driver: { ca: TEST_CA_CERT } });
    const target = { ...h.target, address: `https://${h.target.address}` };
    expect(await h.maintenance.status(target)).toEqual({ enabled: false, reason: null });
  });
});
