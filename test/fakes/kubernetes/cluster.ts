import { randomUUID } from 'node:crypto';
import { type Clock, systemClock } from '../../../lib/model/clock.js';

/** A pod to put on the fake cluster; every field but `name` and `node` has a harmless default. */
export interface FakePodInput {
  name: string;
  node: string;
  namespace?: string;
  /** Kind of the controlling owner (ReplicaSet, StatefulSet, DaemonSet, Job…); null for an unmanaged pod. Default ReplicaSet. */
  controller?: string | null;
  /** Adds an emptyDir volume. */
  emptyDir?: boolean;
  /** Marks it as the mirror of a static pod. */
  mirror?: boolean;
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  /** Evictions a PodDisruptionBudget refuses (429) before allowing one; 'forever' never allows. */
  blockEvictions?: number | 'forever';
  /** Name of the budget given in the 429 message. Default `<name>-pdb`. */
  pdbName?: string;
  /** How long an evicted pod stays (terminating) before it disappears; default the cluster's. */
  terminationDelayMs?: number;
  /** Comes back unbound under the same name with a new UID once gone, as a StatefulSet replica does. */
  recreate?: boolean;
}

export interface FakePod {
  namespace: string;
  name: string;
  uid: string;
  node: string | null;
  input: FakePodInput;
  blockedLeft: number;
  evictionAttempts: number;
  deletionTimestamp: string | null;
  removeAt: number | null;
}

export interface FakeNode {
  name: string;
  uid: string;
  unschedulable: boolean;
  annotations: Record<string, string>;
  /** `spec.providerID`, e.g. `openstack:///<server uuid>` as cloud-provider-openstack sets it. */
  providerID?: string;
  /** `status.addresses` of type InternalIP. */
  addresses: string[];
}

export type EvictionResult =
  | { result: 'not-found' }
  | { result: 'blocked'; pdbName: string }
  | { result: 'evicted' };

/** The cluster state behind the fake API server; tests set it up and inspect it directly. */
export class FakeCluster {
  private readonly nodeMap = new Map<string, FakeNode>();
  private readonly podMap = new Map<string, FakePod>();

  constructor(
    readonly clock: Clock = systemClock,
    /** Default time an evicted pod takes to terminate. */
    public terminationDelayMs = 0,
  ) {}

  addNode(
    name: string,
    options: { unschedulable?: boolean; providerID?: string; addresses?: string[] } = {},
  ): FakeNode {
    const node: FakeNode = {
      name,
      uid: randomUUID(),
      unschedulable: options.unschedulable ?? false,
      ...(options.providerID ? { providerID: options.providerID } : {}),
      addresses: [...(options.addresses ?? [])],
      annotations: {},
    };
    this.nodeMap.set(name, node);
    return node;
  }

  addPod(input: FakePodInput): FakePod {
    const namespace = input.namespace ?? 'default';
    const blocked = input.blockEvictions ?? 0;
    const pod: FakePod = {
      namespace,
      name: input.name,
      uid: randomUUID(),
      node: input.node,
      input,
      blockedLeft: blocked === 'forever' ? Number.POSITIVE_INFINITY : blocked,
      evictionAttempts: 0,
      deletionTimestamp: null,
      removeAt: null,
    };
    this.podMap.set(`${namespace}/${input.name}`, pod);
    return pod;
  }

  nodes(): FakeNode[] {
    return [...this.nodeMap.values()];
  }

  node(name: string): FakeNode | undefined {
    return this.nodeMap.get(name);
  }

  /** The pod as it is now (evicted pods whose termination delay has passed are gone). */
  pod(namespace: string, name: string): FakePod | undefined {
    this.sweep();
    return this.podMap.get(`${namespace}/${name}`);
  }

  /** Pods bound to `node`, or every pod. */
  pods(node?: string): FakePod[] {
    this.sweep();
    return [...this.podMap.values()].filter((p) => node === undefined || p.node === node);
  }

  /** Makes a PodDisruptionBudget refuse the next `times` evictions of this pod. */
  blockEvictions(namespace: string, name: string, times: number | 'forever'): void {
    const pod = this.require(namespace, name);
    pod.blockedLeft = times === 'forever' ? Number.POSITIVE_INFINITY : times;
  }

  /** The Eviction API: a budget may refuse; otherwise the pod starts terminating. */
  evict(namespace: string, name: string): EvictionResult {
    const pod = this.pod(namespace, name);
    if (!pod) return { result: 'not-found' };
    pod.evictionAttempts += 1;
    // A pod already terminating no longer counts against its budget.
    if (pod.deletionTimestamp === null && pod.blockedLeft > 0) {
      pod.blockedLeft -= 1;
      return { result: 'blocked', pdbName: pod.input.pdbName ?? `${name}-pdb` };
    }
    this.startTermination(pod);
    return { result: 'evicted' };
  }

  /** A plain DELETE: no budget is consulted. */
  delete(namespace: string, name: string): boolean {
    const pod = this.pod(namespace, name);
    if (pod) this.startTermination(pod);
    return pod !== undefined;
  }

  private startTermination(pod: FakePod): void {
    if (pod.deletionTimestamp !== null) return;
    const now = this.clock.now();
    pod.deletionTimestamp = new Date(now).toISOString();
    pod.removeAt = now + (pod.input.terminationDelayMs ?? this.terminationDelayMs);
    this.sweep();
  }

  /** Removes pods whose termination has finished, recreating StatefulSet-like ones. */
  private sweep(): void {
    const now = this.clock.now();
    for (const [key, pod] of this.podMap) {
      if (pod.removeAt === null || pod.removeAt > now) continue;
      this.podMap.delete(key);
      if (pod.input.recreate) {
        const again = this.addPod({ ...pod.input, recreate: false, blockEvictions: 0 });
        again.node = null;
      }
    }
  }

  private require(namespace: string, name: string): FakePod {
    const pod = this.pod(namespace, name);
    if (!pod) throw new Error(`fake cluster has no pod ${namespace}/${name}`);
    return pod;
  }
}
