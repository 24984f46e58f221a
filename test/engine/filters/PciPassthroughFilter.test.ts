import { describe, expect, it } from 'vitest';
import { PASS, PASS_ALL, rejectionMessage } from '../../../lib/engine/filter.js';
import { PciPassthroughFilter } from '../../../lib/engine/filters/PciPassthroughFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import type { HostState } from '../../../lib/model/hostState.js';
import type { PciRequest, RequestSpec } from '../../../lib/model/requestSpec.js';
import { makeContext, makeHost, makeSpec } from '../../helpers/factories.js';

/** A pool as operators supply it. */
type PciPool = NonNullable<HostStateInput['pci_stats']>['pools'][number];
const nic = (over: Partial<PciPool> = {}): PciPool => ({
  vendor_id: '8086',
  product_id: '1520',
  count: 1,
  ...over,
});
const pciHost = (pools: PciPool[] | null) => makeHost({ host: 'h1', pci_stats: pools ? { pools } : null });
const request = (over: Partial<PciRequest> = {}): RequestSpec =>
  makeSpec({ pci_requests: [{ count: 1, spec: [{ vendor_id: '8086', product_id: '1520' }], ...over }] });

/** Runs prepare then check, as the filter handler does. */
function passes(host: HostState, spec: RequestSpec): boolean {
  const ctx = makeContext();
  const state = PciPassthroughFilter.prepare?.(spec, ctx);
  if (state === PASS_ALL) return true;
  return PciPassthroughFilter.check(host, spec, state as never, ctx) === PASS;
}

function explain(host: HostState, spec: RequestSpec): string {
  const ctx = makeContext();
  return rejectionMessage(PciPassthroughFilter, host, spec, undefined as never, ctx) ?? '';
}

describe('PciPassthroughFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    // Assess
    expect(PciPassthroughFilter.runFilterOncePerRequest).toBeFalsy();
    expect(PciPassthroughFilter.runOnRebuild).toBeFalsy();
  });

  it('passes every host when the request has no PCI requests', () => {
    // Act
    const state = PciPassthroughFilter.prepare?.(makeSpec(), makeContext());
    // Assess
    expect(state).toBe(PASS_ALL);
  });

  it.each([
    ['a host with a matching free device', pciHost([nic()]), request(), true],
    ['a host without PCI stats', pciHost(null), request(), false],
    ['a host whose matching pool is empty', pciHost([nic({ count: 0 })]), request(), false],
    [
      'a host with too few matching devices',
      pciHost([nic(), nic({ product_id: 'x', count: 5 })]),
      request({ count: 2 }),
      false,
    ],
    [
      'a host whose devices match one of the specs',
      pciHost([nic({ product_id: 'x' })]),
      request({ spec: [{ product_id: 'y' }, { product_id: 'x' }] }),
      true,
    ],
    [
      'a host whose devices sit on a NUMA node away from the guest (affinity is not checked here)',
      pciHost([nic({ numa_node: 1 })]),
      request({ numa_policy: 'required' }),
      true,
    ],
  ])('decides %s', (_case, host, spec, expected) => {
    // Act
    const ok = passes(host, spec);
    // Assess
    expect(ok).toBe(expected);
  });

  it('does not consume the devices it checks', () => {
    // Prepare
    const host = pciHost([nic({ count: 1 })]);
    // Act
    const first = passes(host, request());
    const second = passes(host, request());
    // Assess
    expect([first, second, host.pci_stats?.pools[0].count]).toEqual([true, true, 1]);
  });

  it.each([
    ['the missing PCI stats', pciHost(null), request(), 'h1 reports no PCI devices'],
    [
      'the request that is short',
      pciHost([nic({ physical_network: 'physnet2' })]),
      request({ spec: [{ vendor_id: '8086', physical_network: 'physnet1' }], alias_name: 'sriov' }),
      'PCI request 0 (alias sriov) needs 1 device(s) matching vendor_id=8086 physical_network=physnet1; host has 0 free',
    ],
  ])('explains %s', (_case, host, spec, expected) => {
    // Act
    const why = explain(host, spec);
    // Assess
    expect(why).toBe(expected);
  });
});
