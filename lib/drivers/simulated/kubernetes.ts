/** A NodeDrainer over the simulated fleet: cordons, evicts (PDBs may block for good) and takes time. */
import { EvictionBlockedError, NodeNotFoundError } from '../kubernetes/errors.js';
import type {
  CordonOutcome,
  DrainOptions,
  NodeDrainer,
  NodeDrainResult,
  NodeMatch,
  UncordonOutcome,
} from '../kubernetes/types.js';
import type { ServerIdentity } from '../openstack/schemas.js';
import type { SimNode, SimulatedFleet } from './fleet.js';

export class SimulatedNodeDrainer implements NodeDrainer {
  constructor(private readonly fleet: SimulatedFleet) {}

  async nodesOfServer(server: ServerIdentity): Promise<NodeMatch[]> {
    return [...this.fleet.nodes]
      .filter(([, n]) => n.server === server.id)
      .map(([name]) => ({ name, by: 'providerID' as const }));
  }

  async isCordoned(node: string): Promise<boolean> {
    return this.node(node).cordoned;
  }

  async cordon(node: string): Promise<CordonOutcome> {
    const n = this.node(node);
    if (n.cordoned) return 'already-cordoned';
    n.cordoned = true;
    return 'cordoned';
  }

  async uncordon(node: string): Promise<UncordonOutcome> {
    const n = this.node(node);
    if (!n.cordoned) return 'already-schedulable';
    n.cordoned = false;
    return 'uncordoned';
  }

  async drain(node: string, options: DrainOptions = {}): Promise<NodeDrainResult> {
    const started = this.fleet.clock.now();
    await this.cordon(node);
    const n = this.node(node);
    const blocked = n.pods.filter((p) => !p.daemonSet && p.blocked);
    const timeoutMs = options.timeoutMs ?? 300_000;
    if (blocked.length > 0) {
      await this.fleet.clock.sleep(started + timeoutMs - this.fleet.clock.now());
      throw new EvictionBlockedError(
        node,
        blocked.map((p) => ({
          pod: { namespace: p.namespace, name: p.name },
          attempts: 1,
          reason: 'simulated PodDisruptionBudget',
        })),
        timeoutMs,
      );
    }
    const evicted = n.pods.filter((p) => !p.daemonSet);
    await this.fleet.clock.sleep(
      started + evicted.length * this.fleet.evictionSeconds * 1000 - this.fleet.clock.now(),
    );
    n.pods = n.pods.filter((p) => p.daemonSet);
    return {
      node,
      evicted: evicted.map(({ namespace, name }) => ({ namespace, name })),
      alreadyGone: [],
      skipped: n.pods.map(({ namespace, name }) => ({ namespace, name, reason: 'daemonset' as const })),
      warnings: [],
      durationMs: this.fleet.clock.now() - started,
    };
  }

  private node(name: string): SimNode {
    const node = this.fleet.nodes.get(name);
    if (!node) throw new NodeNotFoundError(name);
    return node;
  }
}
