import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';
import { explainRequests, supportsRequests } from '../hardware/pci.js';

const NO_PCI_DEVICES = reject((host) => `${host.host} reports no PCI devices`);
const DEVICES_MISSING = reject(
  (host, spec) =>
    (host.pci_stats && explainRequests(host.pci_stats, spec.pci_requests)) ??
    `${host.host} lacks the requested PCI devices`,
);

/**
 * Passes hosts whose free PCI device pools can satisfy every PCI request of the instance (vendor,
 * product, physical network, device type and tags). NUMA affinity is NUMATopologyFilter's job.
 */
export const PciPassthroughFilter = defineFilter({
  name: 'PciPassthroughFilter',
  prepare: (spec) => (spec.pci_requests.length === 0 ? PASS_ALL : undefined),
  check: (host, spec) => {
    if (host.pci_stats === null) return NO_PCI_DEVICES;
    return supportsRequests(host.pci_stats, spec.pci_requests) ? PASS : DEVICES_MISSING;
  },
});
