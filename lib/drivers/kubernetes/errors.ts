import { PlacidError } from '../../model/errors.js';
import { type PodRef, podKey } from './types.js';

/**
 * Base of every Kubernetes driver error. Each subclass sets `name` to a literal (not the class name,
 * which a minifier may rename) because Step Functions matches Retry/Catch on it.
 */
export class KubernetesError extends PlacidError {
  /** True when the same call may succeed later without anyone changing anything. */
  readonly retryable: boolean = false;
}

/**
 * A Kubernetes API call failed: a bad status, a timeout or no connection. Retryable for 5xx, 429
 * (API throttling) and transport failures, but not for an untrusted certificate; `status` is
 * undefined when no response came back.
 */
export class KubernetesApiError extends KubernetesError {
  override readonly retryable: boolean;
  constructor(
    readonly operation: string,
    readonly status: number | undefined,
    detail: string,
    options?: { cause?: unknown; retryable?: boolean },
  ) {
    super(
      `Kubernetes ${operation} failed: ${status === undefined ? '' : `HTTP ${status}: `}${detail}`,
      options,
    );
    this.name = 'KubernetesApiError';
    this.retryable = options?.retryable ?? (status === undefined || status === 429 || status >= 500);
  }
}

/** The node does not exist in the cluster (deleted, or the report names the wrong node). */
export class NodeNotFoundError extends KubernetesError {
  constructor(readonly node: string) {
    super(`Kubernetes node ${node} does not exist`);
    this.name = 'NodeNotFoundError';
  }
}

/** Pods with no controller would be lost for good; kubectl refuses them too unless forced. */
export class UnmanagedPodsError extends KubernetesError {
  constructor(
    readonly node: string,
    readonly pods: PodRef[],
  ) {
    super(
      `cannot drain node ${node}: ${pods.length} pod(s) declare no controller and would not be recreated ` +
        `(${pods.map(podKey).join(', ')}); set force to delete them anyway`,
    );
    this.name = 'UnmanagedPodsError';
  }
}

/** One pod whose eviction a PodDisruptionBudget kept refusing (HTTP 429). */
export interface BlockedEviction {
  pod: PodRef;
  attempts: number;
  /** What the API server said, e.g. which disruption budget needs how many healthy pods. */
  reason: string;
}

/** Evictions still refused by a PodDisruptionBudget when the drain deadline passed. */
export class EvictionBlockedError extends KubernetesError {
  constructor(
    readonly node: string,
    readonly blocked: BlockedEviction[],
    readonly timeoutMs: number,
  ) {
    const pods = blocked.map((b) => `${podKey(b.pod)} (${b.attempts} attempts: ${b.reason})`).join('; ');
    super(
      `draining node ${node}: a PodDisruptionBudget still blocked eviction after ${timeoutMs} ms of ` +
        `retries: ${pods}`,
    );
    this.name = 'EvictionBlockedError';
  }
}

/** Pods were evicted but had not terminated by the drain deadline. */
export class DrainTimeoutError extends KubernetesError {
  constructor(
    readonly node: string,
    readonly pending: PodRef[],
    readonly timeoutMs: number,
  ) {
    super(
      `draining node ${node}: ${pending.length} evicted pod(s) still present after ${timeoutMs} ms ` +
        `(${pending.map(podKey).join(', ')})`,
    );
    this.name = 'DrainTimeoutError';
  }
}

/**
 * A report names a Kubernetes cluster the driver configuration does not map to a connection.
 * Permanent: no retry finds it; fix the `clusters` of the kubernetes secret or the report.
 */
export class UnknownKubernetesClusterError extends KubernetesError {
  constructor(
    readonly cluster: string | null,
    readonly known: readonly string[],
  ) {
    const which =
      cluster === null ? 'no cluster (and the configuration names no default)' : `cluster ${cluster}`;
    super(
      `the VM's report names ${which}; the kubernetes configuration knows ${known.length > 0 ? known.join(', ') : 'one unnamed cluster'}`,
    );
    this.name = 'UnknownKubernetesClusterError';
  }
}
