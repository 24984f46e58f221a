import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { nodesOfServer } from '../../../lib/drivers/kubernetes/serverNode.js';

const VM = '6f1e0b2a-5c1d-4d8e-9a51-0c7a2f3b9e11';
const server = { id: VM, addresses: ['10.0.0.5', '2001:db8::5'] };

function node(name: string, providerID?: string, addresses: Array<[string, string]> = []): V1Node {
  return {
    metadata: { name },
    spec: providerID ? { providerID } : {},
    status: { addresses: addresses.map(([type, address]) => ({ type, address })) },
  };
}

describe('nodesOfServer', () => {
  it.each([
    ['openstack:///<uuid>', `openstack:///${VM}`],
    ['openstack://<region>/<uuid>', `openstack://RegionOne/${VM}`],
  ])('finds the node whose providerID is %s', (_form, providerID) => {
    expect(nodesOfServer([node('a'), node('mine', providerID)], server)).toEqual([
      { name: 'mine', by: 'providerID' },
    ]);
  });

  it('does not take a providerID that merely contains the uuid', () => {
    const nodes = [node('x', `openstack:///${VM}-clone`), node('y', `aws:///${VM}`)];
    expect(nodesOfServer(nodes, server)).toEqual([]);
  });

  it('falls back to an InternalIP or ExternalIP among the server’s Nova addresses, not a Hostname', () => {
    const nodes = [
      node('by-ip', undefined, [['ExternalIP', '2001:db8::5']]),
      node('by-name', undefined, [['Hostname', '10.0.0.5']]),
      node('other', undefined, [['InternalIP', '10.0.0.6']]),
    ];
    expect(nodesOfServer(nodes, server)).toEqual([{ name: 'by-ip', by: 'address' }]);
  });

  it('prefers a providerID match to address matches, and returns every candidate for the caller to refuse', () => {
    const nodes = [node('by-ip', undefined, [['InternalIP', '10.0.0.5']]), node('p1', `openstack:///${VM}`)];
    expect(nodesOfServer(nodes, server)).toEqual([{ name: 'p1', by: 'providerID' }]);
    const twice = [node('p1', `openstack:///${VM}`), node('p2', `openstack:///${VM}`)];
    expect(nodesOfServer(twice, server).map((n) => n.name)).toEqual(['p1', 'p2']);
  });
});
