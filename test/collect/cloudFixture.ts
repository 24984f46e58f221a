/**
 * A small cloud for collector tests: the fake Keystone/Nova/Placement with two compute nodes in
 * az1, four servers, a server group, and the files `placid collect` reads (config, secrets).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { CollectConfigInput } from '../../lib/collect/config.js';
import { openLocalStore } from '../../lib/local/localStore.js';
import { FakeOpenStack, type FakeOpenStackOptions, fakeAdminAuth } from '../fakes/openstack/server.js';

export const NODE_1 = '11111111-1111-4111-8111-111111111111';
export const NODE_2 = '22222222-2222-4222-8222-222222222222';
export const VM_A = 'aaaaaaaa-0000-4000-8000-00000000000a';
export const VM_B = 'bbbbbbbb-0000-4000-8000-00000000000b';
export const VM_R = 'cccccccc-0000-4000-8000-00000000000c';
export const VM_SILENT = 'dddddddd-0000-4000-8000-00000000000d';

export async function startCloud(options: FakeOpenStackOptions = {}): Promise<FakeOpenStack> {
  const cloud = await FakeOpenStack.start({ placement: true, ...options });
  cloud.addHypervisor({
    host: 'cmp-1',
    id: NODE_1,
    vcpus: 32,
    hostIp: '192.0.2.1',
    allocationRatios: { VCPU: 4 },
  });
  cloud.addHypervisor({
    host: 'cmp-2',
    id: NODE_2,
    vcpus: 32,
    hostIp: '192.0.2.2',
    allocationRatios: { VCPU: 4 },
  });
  cloud.addAggregate({ name: 'zone-1', availabilityZone: 'az1', hosts: ['cmp-1', 'cmp-2'], metadata: {} });
  cloud.addServer({
    id: VM_A,
    name: 'web-1',
    host: 'cmp-1',
    availabilityZone: 'az1',
    metadata: { role: 'web' },
    addresses: ['10.0.0.11'],
    flavor: { name: 'm1.medium', vcpus: 2, ram: 4096, disk: 40 },
  });
  cloud.addServer({
    id: VM_B,
    name: 'db-1',
    host: 'cmp-1',
    availabilityZone: 'az1',
    tags: ['role=db'],
    flavor: { name: 'm1.xlarge', vcpus: 4, ram: 16384, disk: 80 },
  });
  cloud.addServer({
    id: VM_R,
    name: 'vm-r',
    host: 'cmp-2',
    availabilityZone: 'az1',
    flavor: { name: 'm1.medium', vcpus: 2, ram: 4096, disk: 40 },
  });
  cloud.addServer({ id: VM_SILENT, name: 'win-1', host: 'cmp-2', availabilityZone: 'az1' });
  cloud.addServer({ id: 'eeeeeeee-0000-4000-8000-00000000000e', name: 'shelved', host: '' });
  cloud.addServerGroup({ name: 'web-spread', policy: 'anti-affinity', members: [VM_A] });
  return cloud;
}

/** A temp folder with the secrets file for `cloud` and a config file pointing at `prometheusUrl`. */
export function collectFiles(
  cloud: FakeOpenStack,
  prometheusUrl: string,
  extra: Partial<CollectConfigInput> = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'placid-collect-'));
  writeFileSync(
    join(dir, 'secrets.json'),
    JSON.stringify({
      openstack: {
        auth: fakeAdminAuth(cloud.authUrl),
      },
    }),
  );
  const config: CollectConfigInput = {
    prometheus: { url: prometheusUrl, timeout: '5s', max_attempts: 2 },
    credentials: { file: 'secrets.json' },
    ...extra,
  };
  const configPath = join(dir, 'collect.yaml');
  writeFileSync(configPath, stringify(config));
  return { dir, configPath, dataDir: join(dir, 'store') };
}

/** The store key of instance `uuid` placed on `host` (host and nodename alike). */
export const onNode = (uuid: string, host: string) => ({
  kind: 'instance' as const,
  uuid,
  host,
  nodename: host,
});

/** VM_R's stored counter-reset gap, and its samples on cmp-2 over the last `windowMs`. */
export async function counterResetSamples(dataDir: string, windowMs: number) {
  const local = await openLocalStore({ dataDir });
  try {
    const stored = (await local.store.getInstance(VM_R)) as unknown as {
      gaps?: { reason: string; from: string; to: string }[];
    };
    const now = new Date();
    const samples = await local.store.samplesFor(
      onNode(VM_R, 'cmp-2'),
      new Date(now.getTime() - windowMs),
      now,
    );
    return { reset: stored.gaps?.find((g) => g.reason === 'counter_reset'), samples };
  } finally {
    await local.close();
  }
}
