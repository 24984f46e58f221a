import { defineFactWeigher, pciScarcity } from './hostFacts.js';
import { configMultiplier } from './multiplier.js';

/**
 * Fewer free PCI devices weigh more, whether or not the request asks for PCI: requests without PCI
 * keep off PCI hosts, and requests with PCI stack onto partly used ones instead of fragmenting.
 * The count is capped (see pciScarcity) so a host with no free device still beats one with 99+.
 */
export const PCIWeigher = defineFactWeigher({
  name: 'PCIWeigher',
  novaPath: 'nova.scheduler.weights.pci.PCIWeigher',
  weigh: (host) => pciScarcity(host),
  fact: 'pciScarcity',
  ...configMultiplier('pci_weight_multiplier'),
});
