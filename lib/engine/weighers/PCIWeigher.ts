import type { HostState } from '../../model/hostState.js';
import { defineBatchWeigher } from './batch.js';
import { configMultiplier } from './multiplier.js';

/** Nova caps the device count so a host with no free device still scores above one with 99+. */
const MAX_DEVICES = 100;

/**
 * Fewer free PCI devices weigh more, whether or not the request asks for PCI: requests without PCI
 * keep off PCI hosts, and requests with PCI stack onto partly used ones instead of fragmenting.
 */
export const PCIWeigher = defineBatchWeigher({
  name: 'PCIWeigher',
  novaPath: 'nova.scheduler.weights.pci.PCIWeigher',
  weigh: (host) => scarcity(host),
  weighAll: (hosts, out) => {
    for (let i = 0; i < hosts.length; i++) out[i] = scarcity(hosts[i]);
  },
  ...configMultiplier('pci_weight_multiplier'),
});

function scarcity(host: HostState): number {
  let free = 0;
  const pools = host.pci_stats?.pools;
  if (pools) for (let i = 0; i < pools.length; i++) free += pools[i].count;
  return MAX_DEVICES - Math.min(free, MAX_DEVICES - 1);
}
