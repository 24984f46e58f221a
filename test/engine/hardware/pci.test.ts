import { describe, expect, it } from 'vitest';
import {
  applyRequests,
  explainRequests,
  pciNuma,
  supportsRequests,
} from '../../../lib/engine/hardware/pci.js';
import type { PciPool } from '../../../lib/model/hostState.js';
import type { PciRequest } from '../../../lib/model/requestSpec.js';
import { frozen, host, hostCell, pciRequest, pool } from './topology.js';

const stats = (...pools: PciPool[]) => frozen({ pools });
const spec = (...specs: Record<string, string>[]) => pciRequest({ spec: specs });

describe('supportsRequests: matching', () => {
  it.each([
    ['vendor and product', pool(), spec({ vendor_id: '8086', product_id: '1520' }), true],
    ['a different product', pool(), spec({ vendor_id: '8086', product_id: '10fb' }), false],
    ['values regardless of case', pool({ vendor_id: '10DE' }), spec({ vendor_id: '10de' }), true],
    ['any one of several specs', pool(), spec({ product_id: 'x' }, { product_id: '1520' }), true],
    [
      'a physical network',
      pool({ physical_network: 'physnet1' }),
      spec({ physical_network: 'physnet1' }),
      true,
    ],
    ['a key the pool lacks', pool(), spec({ physical_network: 'physnet1' }), false],
    ['a pool tag', pool({ tags: { trusted: 'true' } }), spec({ vendor_id: '8086', trusted: 'true' }), true],
    ['a pool tag with another value', pool({ tags: { trusted: 'false' } }), spec({ trusted: 'true' }), false],
    ['a device type', pool({ dev_type: 'type-VF' }), spec({ dev_type: 'type-VF' }), true],
    [
      'keys Placement matches (ignored here)',
      pool(),
      spec({ vendor_id: '8086', resource_class: 'CUSTOM_X' }),
      true,
    ],
  ])('matches %s', (_case, p, request, expected) => {
    // Act
    const ok = supportsRequests(stats(p), [request]);
    // Assess
    expect(ok).toBe(expected);
  });

  it.each([
    ['counts devices across matching pools', [pool({ count: 1 }), pool({ count: 2, numa_node: 1 })], 3, true],
    [
      'fails when the matching pools hold too few',
      [pool({ count: 1 }), pool({ count: 1, product_id: 'x' })],
      2,
      false,
    ],
  ])('%s', (_case, pools, count, expected) => {
    // Act
    const ok = supportsRequests(stats(...pools), [pciRequest({ count })]);
    // Assess
    expect(ok).toBe(expected);
  });

  it('lets each request draw from what the earlier ones left', () => {
    // Prepare
    const requests = [pciRequest({ count: 2 }), spec({ vendor_id: '8086' })];
    // Act
    const ok = supportsRequests(stats(pool({ count: 2 })), requests);
    // Assess
    expect(ok).toBe(false);
  });

  it.each([
    [
      'a PF pool for a request without dev_type',
      pool({ dev_type: 'type-PF' }),
      spec({ vendor_id: '8086' }),
      false,
    ],
    ['a PF pool when PFs are requested', pool({ dev_type: 'type-PF' }), spec({ dev_type: 'type-PF' }), true],
    ['a vDPA pool for a generic request', pool({ dev_type: 'vdpa' }), spec({ vendor_id: '8086' }), false],
    [
      'a remote-managed pool for a generic request',
      pool({ tags: { remote_managed: 'true' } }),
      spec({ vendor_id: '8086' }),
      false,
    ],
    [
      'a remote-managed pool on request',
      pool({ tags: { remote_managed: 'true' } }),
      spec({ remote_managed: 'true' }),
      true,
    ],
    [
      'a pool of unknown migratability for live_migratable=true',
      pool(),
      spec({ live_migratable: 'true' }),
      false,
    ],
  ])('keeps special devices for requests that ask for them: %s', (_case, p, request, expected) => {
    // Act
    const ok = supportsRequests(stats(p), [request]);
    // Assess
    expect(ok).toBe(expected);
  });
});

describe('supportsRequests: numa_policy', () => {
  const pools = stats(pool({ numa_node: 0 }), pool({ numa_node: 1 }), pool({ numa_node: null }));
  const on = (cellIds: number[]) => pciNuma(cellIds, null);
  const ask = (count: number, numa_policy: PciRequest['numa_policy']) => [pciRequest({ count, numa_policy })];

  it.each([
    ['required: devices on the guest cells only', 1, 'required', true],
    ['required: no fallback to other nodes', 2, 'required', false],
    ['legacy: devices without a NUMA node also count', 2, 'legacy', true],
    ['legacy is the default', 2, null, true],
    ['legacy: no fallback to other nodes', 3, 'legacy', false],
    ['preferred: any node when the local ones are short', 3, 'preferred', true],
    ['socket: no fallback without socket information', 2, 'socket', false],
  ] as const)('%s', (_case, count, policy, expected) => {
    // Act
    const ok = supportsRequests(pools, ask(count, policy), on([0]));
    // Assess
    expect(ok).toBe(expected);
  });

  it('socket: accepts devices on another NUMA node of the same socket', () => {
    // Prepare
    const topology = host(hostCell(0, { socket: 0 }), hostCell(1, { socket: 0 }), hostCell(2, { socket: 1 }));
    const far = stats(pool({ numa_node: 1 }), pool({ numa_node: 2 }));
    // Act
    const ok = supportsRequests(far, ask(1, 'socket'), pciNuma([0], topology));
    const tooMany = supportsRequests(far, ask(2, 'socket'), pciNuma([0], topology));
    // Assess
    expect([ok, tooMany]).toEqual([true, false]);
  });

  it('ignores numa_policy when no NUMA placement is given', () => {
    // Act
    const ok = supportsRequests(pools, ask(3, 'required'));
    // Assess
    expect(ok).toBe(true);
  });
});

describe('applyRequests', () => {
  it('returns new pools with the devices taken, leaving the input as it was', () => {
    // Prepare
    const input = stats(pool({ count: 3 }), pool({ product_id: 'x', count: 2 }));
    // Act
    const out = applyRequests(input, [pciRequest({ count: 2 })]);
    // Assess
    expect(out?.pools.map((p) => p.count)).toEqual([1, 2]);
    expect(input.pools.map((p) => p.count)).toEqual([3, 2]);
  });

  it('drains pools with fewer tags first, then reports them in the input order', () => {
    // Prepare
    const tagged = pool({ count: 2, physical_network: 'physnet1' });
    const plain = pool({ count: 2 });
    // Act
    const out = applyRequests(stats(tagged, plain), [pciRequest({ count: 3 })]);
    // Assess
    expect(out?.pools.map((p) => [p.physical_network ?? null, p.count])).toEqual([
      ['physnet1', 1],
      [null, 0],
    ]);
  });

  it('does not count a null physical_network or dev_type as a key when ordering pools', () => {
    // Prepare: Nova's pools carry no key for a value the device does not report.
    const withPhysnet = pool({ count: 1, dev_type: 'type-PCI', physical_network: 'physnet1' });
    const nullPhysnet = pool({ count: 1, dev_type: 'type-VF', physical_network: null });
    // Act
    const out = applyRequests(stats(withPhysnet, nullPhysnet), [spec({ vendor_id: withPhysnet.vendor_id })]);
    // Assess: the pool with fewer real keys drains first.
    expect(out?.pools.map((p) => p.count)).toEqual([1, 0]);
  });

  it('counts a tag repeating a pool field once when ordering pools', () => {
    // Prepare: Nova's pool dict holds one physical_network key however the input spells it.
    const twice = pool({ count: 1, physical_network: 'physnet1', tags: { physical_network: 'physnet1' } });
    const tagged = pool({ count: 1, product_id: 'p2', tags: { trusted: 'true' } });
    // Act
    const out = applyRequests(stats(twice, tagged), [spec({ vendor_id: twice.vendor_id })]);
    // Assess: equal key counts keep the input order.
    expect(out?.pools.map((p) => p.count)).toEqual([0, 1]);
  });

  it('reads a tag when the pool field of that name is null', () => {
    // Act
    const fits = supportsRequests(
      stats(pool({ physical_network: null, tags: { physical_network: 'physnet2' } })),
      [spec({ physical_network: 'physnet2' })],
    );
    // Assess
    expect(fits).toBe(true);
  });

  it('takes devices from the guest NUMA nodes first under the preferred policy', () => {
    // Prepare
    const input = stats(pool({ numa_node: 1, count: 2 }), pool({ numa_node: 0, count: 2 }));
    // Act
    const out = applyRequests(
      input,
      [pciRequest({ count: 3, numa_policy: 'preferred' })],
      pciNuma([0], null),
    );
    // Assess
    expect(out?.pools.map((p) => [p.numa_node, p.count])).toEqual([
      [1, 1],
      [0, 0],
    ]);
  });

  it('returns null when the requests do not fit', () => {
    // Act
    const out = applyRequests(stats(pool()), [pciRequest({ count: 2 })]);
    // Assess
    expect(out).toBeNull();
  });
});

describe('explainRequests', () => {
  it.each([
    [
      'a spec nothing matches',
      stats(pool({ product_id: 'x' })),
      [pciRequest({ alias_name: 'nic' })],
      null,
      'PCI request 0 (alias nic) needs 1 device(s) matching vendor_id=8086 product_id=1520; host has 0 free',
    ],
    [
      'a NUMA policy the devices miss',
      stats(pool({ numa_node: 1 })),
      [pciRequest({ numa_policy: 'required' })],
      pciNuma([0], null),
      'PCI request 0 needs 1 device(s) matching vendor_id=8086 product_id=1520; host has 0 free on NUMA node(s) 0 (numa_policy required)',
    ],
    [
      'devices used up by an earlier request',
      stats(pool({ count: 2 })),
      [pciRequest({ count: 2 }), pciRequest()],
      null,
      'PCI request 1 needs 1 device(s) matching vendor_id=8086 product_id=1520; host has 0 free left by the earlier requests',
    ],
  ])('names %s', (_case, input, requests, numa, expected) => {
    // Act
    const why = explainRequests(input, requests, numa);
    // Assess
    expect(why).toBe(expected);
  });

  it('is null when the requests fit', () => {
    // Act
    const why = explainRequests(stats(pool()), [pciRequest()]);
    // Assess
    expect(why).toBeNull();
  });
});
