import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { ClusterAccess } from './access.js';
import { KubernetesApiError, NodeNotFoundError } from './errors.js';
import { evictionBody, readStatus, type StatusBody } from './resources.js';
import { HttpStatusError, type RestRequest, restRequest, segment } from './rest.js';

/** What the Eviction API said about one pod. */
export type EvictionResponse =
  | { outcome: 'evicted' }
  | { outcome: 'gone' }
  /** 429: a PodDisruptionBudget (or API throttling) refused it for now. */
  | { outcome: 'blocked'; reason: string };

const PAGE_SIZE = 500;

/** A NodeList as the API sends it. */
interface NodeList {
  items?: V1Node[];
  metadata?: { continue?: string };
}

/** A PodList as the API sends it (the generated types rename `continue`, which the wire keeps). */
interface PodList {
  items?: V1Pod[];
  metadata?: { continue?: string };
}

/**
 * The few core/v1 and policy/v1 calls a drain needs (the same requests kubectl sends), with every
 * failure turned into a typed error that names the call. Answers are the API's JSON as is.
 */
export class KubernetesApi {
  // Private so that logging this object cannot print the credentials.
  readonly #access: ClusterAccess;
  readonly #timeoutMs: number;

  constructor(access: ClusterAccess, timeoutMs: number) {
    this.#access = access;
    this.#timeoutMs = timeoutMs;
  }

  /** Closes its keep-alive connections (a driver replaced after a rotation, lib/drivers/rotation.ts). */
  close(): void {
    this.#access.close?.();
  }

  async getNode(name: string): Promise<V1Node> {
    return this.call<V1Node>(
      `get node ${name}`,
      { method: 'GET', path: nodePath(name) },
      {
        404: () => nodeMissing(name),
      },
    );
  }

  /**
   * One strategic merge patch of the node's `spec.unschedulable` and annotations (null removes
   * one), so a cordon and the mark saying who made it land together or not at all.
   */
  async patchNode(
    name: string,
    patch: { unschedulable?: boolean; annotations?: Record<string, string | null> },
  ): Promise<V1Node> {
    const body = {
      ...(patch.annotations ? { metadata: { annotations: patch.annotations } } : {}),
      ...(patch.unschedulable === undefined ? {} : { spec: { unschedulable: patch.unschedulable } }),
    };
    const request: RestRequest = {
      method: 'PATCH',
      path: nodePath(name),
      body,
      contentType: 'application/strategic-merge-patch+json',
    };
    return this.call<V1Node>(`patch node ${name}`, request, { 404: () => nodeMissing(name) });
  }

  /** Every node of the cluster, following `continue` tokens (the drain's node lookup, serverNode.ts). */
  async listNodes(): Promise<V1Node[]> {
    const nodes: V1Node[] = [];
    let token: string | undefined;
    do {
      const query = { limit: PAGE_SIZE, continue: token };
      const page = await this.call<NodeList>('list nodes', { method: 'GET', path: '/api/v1/nodes', query });
      nodes.push(...(page.items ?? []));
      token = page.metadata?.continue || undefined;
    } while (token);
    return nodes;
  }

  /** Every pod bound to the node, in all namespaces, following `continue` tokens. */
  async listPodsOnNode(node: string): Promise<V1Pod[]> {
    const pods: V1Pod[] = [];
    let token: string | undefined;
    do {
      const query = { fieldSelector: `spec.nodeName=${node}`, limit: PAGE_SIZE, continue: token };
      const page = await this.call<PodList>(`list pods on node ${node}`, {
        method: 'GET',
        path: '/api/v1/pods',
        query,
      });
      pods.push(...(page.items ?? []));
      token = page.metadata?.continue || undefined;
    } while (token);
    return pods;
  }

  /** The pod, or null when it no longer exists. */
  async getPod(namespace: string, name: string): Promise<V1Pod | null> {
    return this.call<V1Pod | null>(
      `get pod ${namespace}/${name}`,
      { method: 'GET', path: podPath(namespace, name) },
      { 404: () => null },
    );
  }

  async evictPod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<EvictionResponse> {
    const request: RestRequest = {
      method: 'POST',
      path: `${podPath(namespace, name)}/eviction`,
      body: evictionBody(namespace, name, gracePeriodSeconds),
    };
    return this.call<EvictionResponse>(
      `evict pod ${namespace}/${name}`,
      request,
      {
        404: () => ({ outcome: 'gone' }),
        429: (status) => ({ outcome: 'blocked', reason: blockedReason(status) }),
      },
      () => ({ outcome: 'evicted' }),
    );
  }

  /**
   * Sends one request; a 2xx answer is the result (or `onSuccess` of it), an HTTP status listed
   * in `expected` becomes a value, anything else a typed error.
   */
  private async call<T>(
    operation: string,
    request: RestRequest,
    expected: Record<number, (status: StatusBody | undefined) => T> = {},
    onSuccess: (body: unknown) => T = (body) => body as T,
  ): Promise<T> {
    try {
      return onSuccess(await restRequest(this.#access, request, this.#timeoutMs));
    } catch (err) {
      if (err instanceof HttpStatusError) {
        const status = readStatus(err.body);
        const handle = expected[err.status];
        if (handle) return handle(status);
        throw new KubernetesApiError(operation, err.status, describe(status), { cause: err });
      }
      const tls = isTlsFailure(err);
      throw new KubernetesApiError(operation, undefined, transportFailure(err), {
        cause: err,
        retryable: !tls,
      });
    }
  }
}

const nodeMissing = (name: string): never => {
  throw new NodeNotFoundError(name);
};

const nodePath = (name: string) => `/api/v1/nodes/${segment(name)}`;
const podPath = (namespace: string, name: string) =>
  `/api/v1/namespaces/${segment(namespace)}/pods/${segment(name)}`;

/** The budget's own words when the server gives them (which budget, how many healthy pods it needs). */
function blockedReason(status: StatusBody | undefined): string {
  const causes = (status?.details?.causes ?? []).map((c) => c.message).filter((m): m is string => !!m);
  const parts = [status?.message, ...causes].filter((m): m is string => !!m);
  return parts.length > 0 ? parts.join(' ') : 'eviction refused with HTTP 429 (TooManyRequests)';
}

function describe(status: StatusBody | undefined): string {
  if (!status?.message) return 'no error message in the response';
  return status.reason ? `${status.reason}: ${status.message}` : status.message;
}

const TLS_CODES = /^(CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_|ERR_TLS_|ERR_SSL_)/;

/** An untrusted or mismatched certificate: a configuration problem that retrying cannot fix. */
function isTlsFailure(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && TLS_CODES.test(code);
}

function transportFailure(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return 'no response before the request timeout';
  return `no response (${e.code ?? e.name ?? 'error'}): ${e.message ?? String(err)}`;
}
