import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  envSecrets,
  fileSecrets,
  firstFoundSecrets,
  SecretFormatError,
  SecretNotFoundError,
  type SecretsManagerLike,
  secretEnvName,
  secretsManagerSecrets,
} from '../../lib/drivers/credentials.js';
import { isRedacted } from '../../lib/drivers/redact.js';

const SECRET = { auth: { auth_url: 'https://keystone/v3', password: 'pw-from-store' } };

async function secretsFile(content: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'placid-secrets-')), 'secrets.json');
  await writeFile(path, content);
  return path;
}

function fakeSecretsManager(values: Record<string, string>): SecretsManagerLike & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async getSecretValue(id) {
      asked.push(id);
      if (!(id in values)) throw Object.assign(new Error('not found'), { name: 'ResourceNotFoundException' });
      return values[id];
    },
  };
}

describe('secretEnvName', () => {
  it.each([
    ['openstack', 'PLACID_OPENSTACK_JSON'],
    ['nova-prod', 'PLACID_NOVA_PROD_JSON'],
    ['team/nova.eu', 'PLACID_TEAM_NOVA_EU_JSON'],
  ])('maps %s to %s', (name, variable) => {
    expect(secretEnvName(name)).toBe(variable);
  });

  it.each([[''], ['-lead'], ['has space']])('rejects the name %j', (name) => {
    expect(() => secretEnvName(name)).toThrow(SecretFormatError);
  });
});

describe('envSecrets', () => {
  it('parses the variable into a redacted object', async () => {
    const secret = await envSecrets({ PLACID_OPENSTACK_JSON: JSON.stringify(SECRET) }).loadSecret(
      'openstack',
    );
    expect(secret).toEqual(SECRET);
    expect(isRedacted(secret)).toBe(true);
  });

  it('names the variable it looked for', async () => {
    await expect(envSecrets({}).loadSecret('openstack')).rejects.toThrow(
      new SecretNotFoundError('secret openstack: environment variable PLACID_OPENSTACK_JSON is not set'),
    );
  });

  it.each([
    ['invalid JSON', '{"password": "pw-leak-1234"', /is not valid JSON/],
    ['a JSON string', '"pw-leak-1234"', /must hold a JSON object/],
  ])('rejects %s without quoting it', async (_name, text, message) => {
    const error = await envSecrets({ PLACID_OPENSTACK_JSON: text })
      .loadSecret('openstack')
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(SecretFormatError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('pw-leak-1234');
  });
});

describe('fileSecrets', () => {
  it('reads the named entry of the file', async () => {
    const path = await secretsFile(JSON.stringify({ openstack: SECRET, other: { a: 1 } }));
    const secret = await fileSecrets(path).loadSecret('openstack');
    expect(secret).toEqual(SECRET);
    expect(isRedacted(secret)).toBe(true);
  });

  it('says when the file lacks the entry', async () => {
    const path = await secretsFile(JSON.stringify({ other: {} }));
    await expect(fileSecrets(path).loadSecret('openstack')).rejects.toThrow(/not in secrets file/);
  });

  it('says when the file cannot be read', async () => {
    await expect(fileSecrets('/nonexistent/placid.json').loadSecret('openstack')).rejects.toThrow(/ENOENT/);
  });

  it('rejects an entry that is not an object', async () => {
    const path = await secretsFile(JSON.stringify({ openstack: 'pw-inline-1234' }));
    const error = await fileSecrets(path)
      .loadSecret('openstack')
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(SecretFormatError);
    expect((error as Error).message).not.toContain('pw-inline-1234');
  });
});

describe('secretsManagerSecrets', () => {
  it('asks for the prefixed id and parses the SecretString', async () => {
    const client = fakeSecretsManager({ 'placid/openstack': JSON.stringify(SECRET) });
    const secret = await secretsManagerSecrets(client, { prefix: 'placid/' }).loadSecret('openstack');
    expect(secret).toEqual(SECRET);
    expect(client.asked).toEqual(['placid/openstack']);
  });

  it("reports a missing secret with the service's error name", async () => {
    const client = fakeSecretsManager({});
    await expect(secretsManagerSecrets(client).loadSecret('openstack')).rejects.toThrow(
      /could not return openstack \(ResourceNotFoundException\)/,
    );
  });
});

describe('firstFoundSecrets', () => {
  it('takes the first provider that has the secret', async () => {
    const path = await secretsFile(JSON.stringify({ openstack: { from: 'file' } }));
    const chain = firstFoundSecrets(envSecrets({}), fileSecrets(path));
    expect(await chain.loadSecret('openstack')).toEqual({ from: 'file' });
  });

  it('lists every place it looked when none has it', async () => {
    const chain = firstFoundSecrets(envSecrets({}), fileSecrets('/nonexistent/placid.json'));
    await expect(chain.loadSecret('openstack')).rejects.toThrow(/PLACID_OPENSTACK_JSON.*; .*placid\.json/);
  });

  it('stops at a malformed secret instead of falling through', async () => {
    const path = await secretsFile(JSON.stringify({ openstack: { from: 'file' } }));
    const chain = firstFoundSecrets(envSecrets({ PLACID_OPENSTACK_JSON: '[' }), fileSecrets(path));
    await expect(chain.loadSecret('openstack')).rejects.toThrow(SecretFormatError);
  });
});
