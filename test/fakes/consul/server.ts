import { FakeConsulAgent, type FakeConsulAgentOptions } from './agent.js';

export {
  type ConsulFault,
  type ConsulPermission,
  DEFAULT_MAINTENANCE_REASON,
  FakeConsulAgent,
  type FakeConsulAgentOptions,
  NODE_MAINTENANCE_CHECK,
  type RecordedConsulRequest,
} from './agent.js';
export { type FakeCatalogNode, FakeConsulCatalog } from './catalog.js';

/**
 * A fleet of fake Consul agents, one listener per VM (each VM's agent has its own address, as in an
 * instance report's `consul.address`). Options given here apply to every agent added.
 */
export class FakeConsul {
  private readonly agents = new Map<string, FakeConsulAgent>();

  constructor(private readonly defaults: Omit<FakeConsulAgentOptions, 'nodeName'> = {}) {}

  async addAgent(
    nodeName: string,
    options: Omit<FakeConsulAgentOptions, 'nodeName'> = {},
  ): Promise<FakeConsulAgent> {
    if (this.agents.has(nodeName)) throw new Error(`fake Consul already has an agent for node ${nodeName}`);
    const agent = await FakeConsulAgent.start({ ...this.defaults, ...options, nodeName });
    this.agents.set(nodeName, agent);
    return agent;
  }

  agent(nodeName: string): FakeConsulAgent {
    const agent = this.agents.get(nodeName);
    if (!agent) throw new Error(`fake Consul has no agent for node ${nodeName}`);
    return agent;
  }

  /** The `consul` block of an instance report for this node. */
  ref(nodeName: string): { node: string; address: string } {
    return { node: nodeName, address: this.agent(nodeName).address };
  }

  /** Nodes currently in maintenance. */
  inMaintenance(): string[] {
    return [...this.agents.values()].filter((a) => a.inMaintenance).map((a) => a.nodeName);
  }

  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map((a) => a.close()));
    this.agents.clear();
  }
}
