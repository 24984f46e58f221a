/**
 * A cloud whose Keystone and Nova certificates come from a private CA: the real client, built by
 * connectNova from a clouds.yaml-style secret, against the fake cloud serving HTTPS on 127.0.0.1
 * with a CA generated for this run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envSecrets } from '../../../lib/drivers/credentials.js';
import { parseCloudCredentials } from '../../../lib/drivers/openstack/cloudConfig.js';
import { connectNova } from '../../../lib/drivers/openstack/connect.js';
import { OpenStackNetworkError } from '../../../lib/drivers/openstack/errors.js';
import { ConfigError, ValidationError } from '../../../lib/model/errors.js';
import { FakeOpenStack, fakeAdminAuth } from '../../fakes/openstack/server.js';
import { type GeneratedCa, generateCa } from '../../helpers/generatedCa.js';

let fake: FakeOpenStack;
let pki: GeneratedCa;
const dir = mkdtempSync(join(tmpdir(), 'placid-cacert-'));
const caFile = join(dir, 'ca.pem');

beforeAll(async () => {
  pki = generateCa();
  writeFileSync(caFile, pki.ca);
  fake = await FakeOpenStack.start({ tls: { cert: pki.cert, key: pki.key } });
  fake.addServer({ id: 'vm-1', host: 'cmp-1' });
});
afterAll(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

function entry(extra: Record<string, unknown> = {}) {
  return {
    region_name: 'RegionOne',
    ...extra,
    auth: fakeAdminAuth(fake.authUrl),
  };
}

const secretsOf = (value: unknown) => envSecrets({ PLACID_OPENSTACK_JSON: JSON.stringify(value) });

describe('a cloud behind a private CA', () => {
  it('is refused without the CA: the system trust store does not know it', async () => {
    // Act
    const nova = await connectNova(secretsOf(entry()), { env: {}, nova: { retry: { maxAttempts: 1 } } });
    // Assess
    const error = await nova.getServer('vm-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenStackNetworkError);
    expect((error as Error).message).toMatch(/identity POST .*auth\/tokens could not connect/);
  });

  it.each([
    ['cacert as a file path', () => entry({ cacert: caFile }), {}],
    ['cacert as PEM text (a secret in Secrets Manager)', () => entry({ cacert: pki.ca }), {}],
    ['OS_CACERT when the entry has no cacert', () => entry(), { OS_CACERT: caFile }],
  ])('is trusted with %s, for Keystone and Nova alike', async (_case, value, env) => {
    // Act
    const nova = await connectNova(secretsOf(value()), { env });
    // Assess
    expect((await nova.getServer('vm-1')).host).toBe('cmp-1');
  });

  it('skips certificate checks only when the entry says verify: false', async () => {
    // Act
    const nova = await connectNova(secretsOf(entry({ verify: false })), { env: {} });
    // Assess
    expect((await nova.getServer('vm-1')).host).toBe('cmp-1');
  });

  it('names a cacert file that cannot be read', async () => {
    // Act
    const failure = connectNova(secretsOf(entry({ cacert: join(dir, 'missing.pem') })), { env: {} });
    // Assess
    await expect(failure).rejects.toThrow(ConfigError);
    await expect(failure).rejects.toThrow(
      /secret openstack cacert: cannot read the CA bundle .*missing\.pem \(ENOENT\)/,
    );
  });
});

describe('parseCloudCredentials TLS fields', () => {
  const base = { auth: { auth_url: 'https://k:5000/v3', user_id: 'u', password: 'p-1234', project_id: 'p' } };

  it('keeps cacert and turns verify: false or insecure: true into insecure', () => {
    expect(parseCloudCredentials({ ...base, cacert: '/etc/ca.pem' }, 't')).toMatchObject({
      cacert: '/etc/ca.pem',
    });
    expect(parseCloudCredentials({ ...base, verify: false }, 't').insecure).toBe(true);
    expect(parseCloudCredentials({ ...base, insecure: true }, 't').insecure).toBe(true);
    expect(parseCloudCredentials({ ...base, verify: true }, 't').insecure).toBeUndefined();
  });

  it('rejects contradicting verify and insecure, naming the field', () => {
    expect(() => parseCloudCredentials({ ...base, verify: true, insecure: true }, 't')).toThrow(
      ValidationError,
    );
    expect(() => parseCloudCredentials({ ...base, verify: true, insecure: true }, 't')).toThrow(/verify/);
  });

  it('rejects a verify that is not a boolean', () => {
    expect(() => parseCloudCredentials({ ...base, verify: 'no' }, 't')).toThrow(/verify/);
  });
});
