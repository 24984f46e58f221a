import { describe, expect, it } from 'vitest';
import { selectEndpoint } from '../../../lib/drivers/openstack/catalog.js';
import { EndpointNotFoundError } from '../../../lib/drivers/openstack/errors.js';
import type { CatalogEntry } from '../../../lib/drivers/openstack/schemas.js';

const catalog: CatalogEntry[] = [
  {
    type: 'compute',
    endpoints: [
      { interface: 'public', region_id: 'r1', url: 'https://nova.r1/v2.1/' },
      { interface: 'internal', region_id: 'r1', url: 'http://nova-int.r1/v2.1' },
      { interface: 'public', region: 'r2', url: 'https://nova.r2/v2.1' },
    ],
  },
  { type: 'identity', endpoints: [{ interface: 'public', region_id: 'r1', url: 'https://keystone/v3' }] },
];

describe('selectEndpoint', () => {
  it.each([
    ['public in r1', { interface: 'public', region: 'r1' }, 'https://nova.r1/v2.1'],
    ['internal (only in r1)', { interface: 'internal' }, 'http://nova-int.r1/v2.1'],
    ['public in r2 by the legacy region field', { region: 'r2' }, 'https://nova.r2/v2.1'],
  ] as const)('picks %s', (_name, query, url) => {
    expect(selectEndpoint(catalog, { type: 'compute', ...query })).toBe(url);
  });

  it.each([
    ['an unknown service type', { type: 'volumev3' }],
    ['an interface no endpoint has', { type: 'compute', interface: 'admin' as const }],
    ['two regions and none chosen', { type: 'compute' }],
  ])('fails with EndpointNotFoundError for %s', (_name, query) => {
    expect(() => selectEndpoint(catalog, query)).toThrow(EndpointNotFoundError);
  });
});
