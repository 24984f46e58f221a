/** Inventory records for collector unit tests. */
import type { InventoryHost, InventoryServer } from '../../lib/collect/ports.js';

export function server(id: string, name: string, addresses: string[] = [], vcpus = 2): InventoryServer {
  return {
    id,
    name,
    status: 'ACTIVE',
    host: 'cmp-1',
    nodename: 'cmp-1',
    availabilityZone: 'az1',
    metadata: {},
    tags: [],
    addresses,
    bootFromVolume: false,
    flavor: { name: 'm1', vcpus, ramMb: 2048, diskGb: 20, ephemeralGb: 0, swapMb: 0 },
  };
}

export function node(id: string, host: string, hostIp: string | null = null): InventoryHost {
  return {
    id,
    host,
    nodename: host,
    state: 'up',
    status: 'enabled',
    disabledReason: null,
    hostIp,
    hypervisorType: 'QEMU',
    hypervisorVersion: 8_002_002,
    cpuInfo: null,
    usage: null,
  };
}
