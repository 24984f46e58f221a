import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { beforeEach, describe, expect, it } from 'vitest';
import { fromSecretsManagerClient } from '../../lib/drivers/awsSecretsManager.js';
import {
  SecretFormatError,
  SecretNotFoundError,
  SecretUnavailableError,
  secretsManagerSecrets,
} from '../../lib/drivers/credentials.js';

const sm = mockClient(SecretsManagerClient);
const provider = () =>
  secretsManagerSecrets(fromSecretsManagerClient(new SecretsManagerClient({ region: 'eu-west-1' })), {
    prefix: 'placid/',
  });

beforeEach(() => {
  sm.reset();
});

describe('fromSecretsManagerClient', () => {
  it('reads the SecretString of the prefixed secret id', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: '{"auth": {"password": "pw-5678"}}' });
    const secret = await provider().loadSecret('openstack');
    expect(secret).toEqual({ auth: { password: 'pw-5678' } });
    expect(sm).toHaveReceivedCommandWith(GetSecretValueCommand, { SecretId: 'placid/openstack' });
  });

  it('refuses a binary secret', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1]) });
    await expect(provider().loadSecret('openstack')).rejects.toThrow(SecretFormatError);
  });

  it('reports a missing secret by the service error name', async () => {
    sm.on(GetSecretValueCommand).rejects(
      Object.assign(new Error('Secrets Manager cannot find it'), { name: 'ResourceNotFoundException' }),
    );
    const error = await provider()
      .loadSecret('openstack')
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(SecretNotFoundError);
    expect((error as Error).message).toMatch(/\(ResourceNotFoundException\)/);
  });

  it('surfaces any other failure as SecretUnavailableError', async () => {
    sm.on(GetSecretValueCommand).rejects(
      Object.assign(new Error('denied'), { name: 'AccessDeniedException' }),
    );
    await expect(provider().loadSecret('openstack')).rejects.toThrow(SecretUnavailableError);
  });
});
