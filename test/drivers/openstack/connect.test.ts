import { afterEach, describe, expect, it } from 'vitest';
import { envSecrets } from '../../../lib/drivers/credentials.js';
import { connectNova } from '../../../lib/drivers/openstack/connect.js';
import { ValidationError } from '../../../lib/model/errors.js';
import { FakeOpenStack, fakeAdminAuth } from '../../fakes/openstack/server.js';

let fake: FakeOpenStack;
afterEach(async () => {
  await fake?.close();
});

describe('connectNova', () => {
  it('builds a working client from a clouds.yaml-style secret in the environment', async () => {
    fake = await FakeOpenStack.start();
    fake.addServer({ id: 'vm-1', host: 'cmp-1' });
    const entry = {
      region_name: 'RegionOne',
      auth: fakeAdminAuth(fake.authUrl),
    };
    const nova = await connectNova(envSecrets({ PLACID_OPENSTACK_JSON: JSON.stringify(entry) }));
    expect((await nova.getServer('vm-1')).host).toBe('cmp-1');
  });

  it('names the secret when its content is incomplete', async () => {
    const secrets = envSecrets({ PLACID_NOVA_JSON: JSON.stringify({ auth: { auth_url: 'https://k/v3' } }) });
    await expect(connectNova(secrets, { secretName: 'nova' })).rejects.toThrow(ValidationError);
    await expect(connectNova(secrets, { secretName: 'nova' })).rejects.toThrow(/^secret nova: /);
  });
});
