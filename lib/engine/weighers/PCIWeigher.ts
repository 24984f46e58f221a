import type { HostState } from '../../model/hostState.js';
import { defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/** Nova caps the device count so a host with no free device still scores above one with 99+. */
const MAX_DEVICES = 100;

/**
 * Fewer free PCI devices weigh more, whether or not the request asks for PCI: requests without PCI
 * keep off PCI hosts, and requests with PCI stack onto partly used ones instead of fragmenting.
 */
export const PCIWeigher = defineWeigher({
  name: 'PCIWeigher',
  novaPath: 'nova.scheduler.weights.pci.PCIWeigher',
  weigh: (host) => MAX_DEVICES - Math.min(freeDevices(host), MAX_DEVICES - 1),
  ...configMultiplier('pci_weight_multiplier'),
});

function freeDevices(host: HostState): number {
  let free = 0;
  for (const pool of host.pci_stats?.pools ?? []) free += pool.count;
  return free;
}
