import type { ServerIdentity } from '../openstack/schemas.js';

/** A VM's Consul agent, as an instance report carries it: the node name and the agent's address. */
export interface ConsulAgentRef {
  node: string;
  /** `host`, `host:port`, `[ipv6]:port` or a full `http(s)://` URL. */
  address: string;
}

export interface MaintenanceStatus {
  enabled: boolean;
  /** The reason recorded on Consul's `_node_maintenance` check; null when not in maintenance. */
  reason: string | null;
}

/**
 * What `enable` found. `already-enabled` carries the reason already recorded: Consul keeps the first
 * one, so a different reason means someone else (an operator) put the node in maintenance.
 */
export interface EnableOutcome {
  outcome: 'enabled' | 'already-enabled';
  reason: string;
}

export type DisableOutcome = 'disabled' | 'already-disabled';

/** A node of the Consul catalog, at the address its agent listens on. */
export interface CatalogNode {
  node: string;
  address: string;
  datacenter: string | null;
}

/**
 * Takes a VM's Consul node out of service discovery and back, like `consul maint -enable -reason …`
 * and `consul maint -disable`. Every method is idempotent, so a workflow step may be retried.
 */
export interface MaintenanceSwitch {
  enable(agent: ConsulAgentRef, reason: string): Promise<EnableOutcome>;
  disable(agent: ConsulAgentRef): Promise<DisableOutcome>;
  status(agent: ConsulAgentRef): Promise<MaintenanceStatus>;
  /** The node of the agent at `address` (optional for test doubles). */
  agentSelf?(address: string): Promise<{ node: string; datacenter: string }>;
  /** The catalog's nodes at the server's addresses; null when no catalog is configured. */
  catalogNodesOf(server: ServerIdentity, datacenter?: string): Promise<CatalogNode[] | null>;
}
