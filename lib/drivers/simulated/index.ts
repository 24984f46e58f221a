/** Simulated Nova, Kubernetes and Consul drivers over one in-memory fleet, for the local simulation. */
import { SimulatedMaintenanceSwitch } from './consul.js';
import { type SimServer, SimulatedFleet, type SimulatedFleetOptions } from './fleet.js';
import { SimulatedNodeDrainer } from './kubernetes.js';
import { SimulatedNova } from './nova.js';

export { SimulatedMaintenanceSwitch } from './consul.js';
export {
  type FailureRates,
  type SimMigration,
  type SimNode,
  type SimServer,
  SimulatedFleet,
  type SimulatedFleetOptions,
} from './fleet.js';
export { SimulatedNodeDrainer } from './kubernetes.js';
export { SimulatedNova } from './nova.js';

/** The workflow's driver getters (its `DriverDeps`), all over `fleet`. */
export function simulatedDrivers(fleet: SimulatedFleet) {
  const nova = new SimulatedNova(fleet);
  const drainer = new SimulatedNodeDrainer(fleet);
  const maintenance = new SimulatedMaintenanceSwitch(fleet);
  return { nova: async () => nova, drainer: async () => drainer, maintenance: async () => maintenance };
}

/** A simulated fleet holding one VM as its report describes it: its server, node pods and agent. */
export function fleetAroundVm(
  vm: {
    uuid: string;
    host: string;
    flavor: SimServer['flavor'];
    shared_storage: boolean;
    kubernetes_node: string | null;
    consul: { node: string } | null;
  },
  options: SimulatedFleetOptions,
): SimulatedFleet {
  const fleet = new SimulatedFleet(options);
  fleet.addServer({ uuid: vm.uuid, host: vm.host, flavor: vm.flavor, shared_storage: vm.shared_storage });
  if (vm.kubernetes_node) {
    fleet.addNode(
      vm.kubernetes_node,
      [
        { name: `${vm.kubernetes_node}-app-0` },
        { name: `${vm.kubernetes_node}-app-1` },
        { name: `${vm.kubernetes_node}-node-exporter`, daemonSet: true },
      ],
      vm.uuid,
    );
  }
  if (vm.consul) fleet.addConsulAgent(vm.consul.node, vm.uuid);
  return fleet;
}
