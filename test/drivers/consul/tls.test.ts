import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsulMaintenanceSwitch } from '../../../lib/drivers/consul/ConsulMaintenanceSwitch.js';
import { ConsulTlsError } from '../../../lib/drivers/consul/errors.js';
import { resolveConsulOptions } from '../../../lib/drivers/consul/options.js';
import { FakeConsul } from '../../fakes/consul/server.js';
import { type GeneratedCa, generateCa } from '../../helpers/generatedCa.js';
import { TEST_CA_CERT, TEST_SERVER_CERT, TEST_SERVER_KEY } from '../kubernetes/tlsFixture.js';
import { caught, type Harness, NODE, startHarness, stopHarness, TOKEN } from './harness.js';

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

describe('Consul over TLS by default', () => {
  let pki: GeneratedCa;
  let dir: string;
  beforeAll(() => {
    pki = generateCa();
    dir = mkdtempSync(join(tmpdir(), 'placid-consul-ca-'));
    writeFileSync(join(dir, 'ca.pem'), pki.ca);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reaches an agent address without a scheme over https, verified against the caFile', async () => {
    // Prepare: no scheme in the options, none in the address
    const consul = new FakeConsul({ token: TOKEN });
    const agent = await consul.addAgent(NODE, { tls: { cert: pki.cert, key: pki.key } });
    const maintenance = await ConsulMaintenanceSwitch.create({ token: TOKEN, caFile: join(dir, 'ca.pem') });
    try {
      // Act
      await maintenance.enable(consul.ref(NODE), 'm-42');
      // Assess
      expect(agent.inMaintenance).toBe(true);
    } finally {
      maintenance.close();
      await consul.close();
    }
  });

  it('defaults to port 8501', async () => {
    expect((await resolveConsulOptions({})).port).toBe(8501);
  });

  it('refuses an http:// agent address without insecure, and never contacts the agent', async () => {
    h = await startHarness({ driver: { scheme: 'https', insecure: false } });
    const error = await caught(h.maintenance.status({ ...h.target, address: `http://${h.target.address}` }));
    expect(error).toBeInstanceOf(ConsulTlsError);
    expect(error.message).toContain('set insecure: true');
    expect(h.agent.requests).toEqual([]);
  });

  it('allows plain http only with insecure, and warns when it is set', async () => {
    const warnings: string[] = [];
    const listen = (w: Error) => warnings.push(w.message);
    process.on('warning', listen);
    try {
      h = await startHarness({ driver: { scheme: 'http', insecure: true } });
      expect(await h.maintenance.status(h.target)).toEqual({ enabled: false, reason: null });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.some((w) => w.includes('insecure'))).toBe(true);
    } finally {
      process.off('warning', listen);
    }
  });
});
