/**
 * The fake Placement API: a compute node's resource provider (UUID = the hypervisor's id) with its
 * inventories (totals, reserved, allocation ratios), usages (from the servers on it) and traits.
 */
import type { FakeReply } from './http.js';
import type { FakeHypervisor } from './inventoryState.js';
import type { FakeCloudState } from './state.js';

export type PlacementRouteName = 'placementInventories' | 'placementUsages' | 'placementTraits';

interface PlacementRoute {
  name: PlacementRouteName;
  pattern: RegExp;
  handle(state: FakeCloudState, provider: FakeHypervisor): FakeReply;
}

export const PLACEMENT_ROUTES: readonly PlacementRoute[] = [
  {
    name: 'placementInventories',
    pattern: /^\/resource_providers\/([^/]+)\/inventories$/,
    handle: (_state, h) => ({
      status: 200,
      body: {
        resource_provider_generation: 1,
        inventories: {
          VCPU: inventory(h.vcpus, 0, h.allocationRatios.VCPU),
          MEMORY_MB: inventory(h.memoryMb, h.reservedMemoryMb, h.allocationRatios.MEMORY_MB),
          DISK_GB: inventory(h.localGb, 0, h.allocationRatios.DISK_GB),
        },
      },
    }),
  },
  {
    name: 'placementUsages',
    pattern: /^\/resource_providers\/([^/]+)\/usages$/,
    handle: (state, h) => {
      const u = state.inventory.usage(h, state.servers.values());
      return {
        status: 200,
        body: {
          resource_provider_generation: 1,
          // Placement counts allocations only; the host's reserve is in the inventory.
          usages: {
            VCPU: u.vcpusUsed,
            MEMORY_MB: u.memoryMbUsed - h.reservedMemoryMb,
            DISK_GB: u.localGbUsed,
          },
        },
      };
    },
  },
  {
    name: 'placementTraits',
    pattern: /^\/resource_providers\/([^/]+)\/traits$/,
    handle: (_state, h) => ({ status: 200, body: { resource_provider_generation: 1, traits: h.traits } }),
  },
];

function inventory(total: number, reserved: number, ratio: number) {
  return { total, reserved, min_unit: 1, max_unit: total, step_size: 1, allocation_ratio: ratio };
}

/** Placement's error body: `{errors: [{status, title, detail}]}`. */
export function placementFault(status: number, detail: string): FakeReply {
  return { status, body: { errors: [{ status, title: 'Error', detail, request_id: 'req-fake' }] } };
}
