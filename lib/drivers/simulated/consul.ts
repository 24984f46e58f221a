/** A MaintenanceSwitch over the simulated fleet's Consul agents; agents may be briefly unreachable. */
import { ConsulUnreachableError } from '../consul/errors.js';
import type {
  CatalogNode,
  ConsulAgentRef,
  DisableOutcome,
  EnableOutcome,
  MaintenanceStatus,
  MaintenanceSwitch,
} from '../consul/types.js';
import type { ServerIdentity } from '../openstack/schemas.js';
import type { SimulatedFleet } from './fleet.js';

export class SimulatedMaintenanceSwitch implements MaintenanceSwitch {
  constructor(private readonly fleet: SimulatedFleet) {}

  async status(agent: ConsulAgentRef): Promise<MaintenanceStatus> {
    const reason = this.reach(agent, 'read checks');
    return { enabled: reason !== null, reason };
  }

  async enable(agent: ConsulAgentRef, reason: string): Promise<EnableOutcome> {
    const current = this.reach(agent, 'enable maintenance');
    // Like Consul, the first reason stays.
    if (current !== null) return { outcome: 'already-enabled', reason: current };
    this.fleet.maintenance.set(agent.node, reason);
    return { outcome: 'enabled', reason };
  }

  async disable(agent: ConsulAgentRef): Promise<DisableOutcome> {
    if (this.reach(agent, 'disable maintenance') === null) return 'already-disabled';
    this.fleet.maintenance.set(agent.node, null);
    return 'disabled';
  }

  async catalogNodesOf(server: ServerIdentity): Promise<CatalogNode[]> {
    return [...this.fleet.consulServers]
      .filter(([, uuid]) => uuid === server.id)
      .map(([node]) => ({ node, address: node, datacenter: null }));
  }

  private reach(agent: ConsulAgentRef, operation: string): string | null {
    if (!this.fleet.maintenance.has(agent.node) || this.fleet.chance(this.fleet.failures.consulUnreachable)) {
      throw new ConsulUnreachableError(operation, agent.address, 'simulated: no answer from the agent');
    }
    return this.fleet.maintenance.get(agent.node) ?? null;
  }
}
