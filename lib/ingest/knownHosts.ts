/**
 * Which compute nodes the store knows. An instance report must name one: an instance on a node
 * Placid has never heard of cannot be placed around, drained or rebalanced, and would show up in
 * the fleet view as a VM without a host. Nodes are never deleted from the store, so a positive
 * answer is cached for the life of the Lambda container; a negative one never is (the node's
 * first report may be the next message).
 */
import { LRUCache } from 'lru-cache';
import type { Issue } from '../model/errors.js';
import type { ReportMessage } from '../model/reports.js';
import { mapLimit } from '../store/concurrency.js';
import type { FleetStore } from '../store/fleetStore.js';

export interface NodeKey {
  host: string;
  nodename: string;
}

/** Answers "does the store hold this node?"; injectable so tests can count or fail the lookups. */
export type NodeLookup = (host: string, nodename: string) => Promise<boolean>;

const keyOf = (n: NodeKey): string => `${n.host}\u0000${n.nodename}`;

export class KnownHosts {
  private readonly known: LRUCache<string, true>;
  private readonly concurrency: number;

  constructor(
    private readonly lookup: NodeLookup,
    options: { cacheSize?: number; concurrency?: number } = {},
  ) {
    this.known = new LRUCache({ max: options.cacheSize ?? 100_000 });
    this.concurrency = options.concurrency ?? 8;
  }

  /**
   * Looks nodes up with consistent reads of the hosts table (a node reported a moment ago by another
   * Lambda counts; FleetStore.hasNode).
   */
  static inStore(store: Pick<FleetStore, 'hasNode'>): KnownHosts {
    return new KnownHosts((host, nodename) => store.hasNode(host, nodename));
  }

  /** Records nodes whose reports were just stored, so later messages need no lookup. */
  remember(nodes: Iterable<NodeKey>): void {
    for (const node of nodes) this.known.set(keyOf(node), true);
  }

  /** The nodes among `nodes` that the store does not hold (each distinct node looked up once). */
  async missing(nodes: Iterable<NodeKey>): Promise<NodeKey[]> {
    const unknown = new Map<string, NodeKey>();
    for (const node of nodes) {
      const key = keyOf(node);
      if (!this.known.has(key)) unknown.set(key, node);
    }
    const found = await mapLimit([...unknown.values()], this.concurrency, (n) =>
      this.lookup(n.host, n.nodename),
    );
    const missing: NodeKey[] = [];
    [...unknown.values()].forEach((node, i) => {
      if (found[i]) this.known.set(keyOf(node), true);
      else missing.push(node);
    });
    return missing;
  }
}

/**
 * One issue per instance report whose node is neither reported in the same message nor in the
 * store. Transient lookup failures propagate (the message is retried, not rejected).
 */
export async function unknownHostIssues(message: ReportMessage, known: KnownHosts): Promise<Issue[]> {
  const inMessage = new Set(message.hypervisors.map(keyOf));
  const elsewhere = message.instances.filter((i) => !inMessage.has(keyOf(i)));
  if (elsewhere.length === 0) return [];
  const missing = new Set((await known.missing(elsewhere)).map(keyOf));
  const issues: Issue[] = [];
  message.instances.forEach((instance, i) => {
    if (!missing.has(keyOf(instance))) return;
    const node =
      instance.nodename === instance.host ? instance.host : `${instance.host} (node ${instance.nodename})`;
    issues.push({
      path: `instances[${i}].host`,
      message:
        `${node} is not a known compute node: neither in the store nor among this message's hypervisors; ` +
        `send its hypervisor report first, then redrive this message from the dead-letter queue`,
    });
  });
  return issues;
}
