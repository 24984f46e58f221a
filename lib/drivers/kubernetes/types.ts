import type { ServerIdentity } from '../openstack/schemas.js';

/** A pod by namespace and name, as reported in drain results and errors. */
export interface PodRef {
  namespace: string;
  name: string;
}

export const podKey = (pod: PodRef): string => `${pod.namespace}/${pod.name}`;

/** Node annotations a drain with a `mark` sets in the cordon's patch, and uncordon removes. */
export const DRAINED_BY_ANNOTATION = 'placid.io/drained-by';
export const DRAINED_AT_ANNOTATION = 'placid.io/drained-at';

/** What `cordon` found: whether this call made the node unschedulable or it already was. */
export type CordonOutcome = 'cordoned' | 'already-cordoned';
/** What `uncordon` found: whether this call made the node schedulable or it already was. */
export type UncordonOutcome = 'uncordoned' | 'already-schedulable';

/** Why a pod on the node was left alone, as `kubectl drain --ignore-daemonsets` does. */
export type SkipReason = 'daemonset' | 'mirror';

export interface DrainOptions {
  /** Also remove pods that no controller will recreate (kubectl's `--force`). Default false. */
  force?: boolean;
  /** The whole drain (cordon, evictions, waiting for pods to go) must finish within this. Default 300000. */
  timeoutMs?: number;
  /** Overrides each pod's termination grace period; omit to use the pod's own. */
  gracePeriodSeconds?: number;
  /** First wait after a PodDisruptionBudget refuses an eviction; doubles up to `maxRetryDelayMs`. Default 1000. */
  initialRetryDelayMs?: number;
  /** Longest wait between eviction attempts. Default 10000. */
  maxRetryDelayMs?: number;
  /** How often to check whether evicted pods are gone. Default 1000. */
  pollIntervalMs?: number;
  /** Stops the drain between calls (its caller lost the right to act): the signal's reason is thrown. */
  signal?: AbortSignal;
  /** Annotates the node with who drained it and when, in the cordon's own patch. */
  mark?: { migrationId: string; at: Date };
}

export interface NodeDrainResult {
  node: string;
  /** Pods evicted by this drain and confirmed gone. */
  evicted: PodRef[];
  /** Pods the eviction API no longer knew (404): gone before this drain reached them. */
  alreadyGone: PodRef[];
  /** Pods left in place: DaemonSet pods (their controller ignores cordons) and static mirror pods. */
  skipped: Array<PodRef & { reason: SkipReason }>;
  /** kubectl-style warnings: emptyDir data deleted, unmanaged pods removed under `force`. */
  warnings: string[];
  durationMs: number;
}

/** A node that is the server, and how that was found. */
export interface NodeMatch {
  name: string;
  by: 'providerID' | 'address';
}

/**
 * Takes a Kubernetes node out of service and back, like `kubectl cordon`, `kubectl drain --force
 * --ignore-daemonsets --delete-emptydir-data` (force optional) and `kubectl uncordon`.
 * Every method is idempotent, so a workflow step may be retried after a partial effect.
 */
export interface NodeDrainer {
  /** Marks the node unschedulable (and annotates it with `mark`, when given). */
  cordon(node: string, mark?: DrainOptions['mark']): Promise<CordonOutcome>;
  /** Cordons the node, evicts its pods through the Eviction API and waits until they are gone. */
  drain(node: string, options?: DrainOptions): Promise<NodeDrainResult>;
  /** Marks the node schedulable again, removing Placid's mark. */
  uncordon(node: string): Promise<UncordonOutcome>;
  isCordoned(node: string): Promise<boolean>;
  /** Every node, for the cleanup of Placid's marks (optional for test doubles). */
  nodes?(): Promise<
    Array<{
      metadata?: { name?: string; annotations?: Record<string, string> };
      spec?: { unschedulable?: boolean };
    }>
  >;
  /** The nodes that are this server (serverNode.ts): by providerID, else by address. */
  nodesOfServer(server: ServerIdentity): Promise<NodeMatch[]>;
}
