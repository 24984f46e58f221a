/** Simulated Nova, Kubernetes and Consul drivers over one in-memory fleet, for the local simulation. */
import { SimulatedMaintenanceSwitch } from './consul.js';
import type { SimulatedFleet } from './fleet.js';
import { SimulatedNodeDrainer } from './kubernetes.js';
import { SimulatedNova } from './nova.js';

/** The workflow's driver getters (its `DriverDeps`), all over `fleet`. */
export function simulatedDrivers(fleet: SimulatedFleet) {
  const nova = new SimulatedNova(fleet);
  const drainer = new SimulatedNodeDrainer(fleet);
  const maintenance = new SimulatedMaintenanceSwitch(fleet);
  return { nova: async () => nova, drainer: async () => drainer, maintenance: async () => maintenance };
}
