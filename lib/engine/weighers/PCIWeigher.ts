import { pendingWeigher } from '../notImplemented.js';

export const PCIWeigher = pendingWeigher('PCIWeigher', 'nova.scheduler.weights.pci.PCIWeigher');
