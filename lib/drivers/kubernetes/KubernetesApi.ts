import {
  ApiException,
  CoreV1Api,
  createConfiguration,
  type KubeConfig,
  type Middleware,
  PatchStrategy,
  ServerConfiguration,
  setHeaderOptions,
  type V1Node,
  type V1Pod,
} from '@kubernetes/client-node';
import { KubernetesApiError, NodeNotFoundError } from './errors.js';
import { evictionBody, readStatus, type StatusBody } from './resources.js';

/** What the Eviction API said about one pod. */
export type EvictionResponse =
  | { outcome: 'evicted' }
  | { outcome: 'gone' }
  /** 429: a PodDisruptionBudget (or API throttling) refused it for now. */
  | { outcome: 'blocked'; reason: string };

const PAGE_SIZE = 500;

/**
 * The few core/v1 and policy/v1 calls a drain needs, through the official client, with every
 * failure turned into a typed error that names the call.
 */
export class KubernetesApi {
  // Private so that logging this object cannot print the KubeConfig and its credentials.
  readonly #core: CoreV1Api;

  constructor(kubeConfig: KubeConfig, timeoutMs: number) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new KubernetesApiError('connect', undefined, 'the kubeconfig has no current cluster');
    this.#core = new CoreV1Api(
      createConfiguration({
        baseServer: new ServerConfiguration(cluster.server, {}),
        authMethods: { default: kubeConfig },
        promiseMiddleware: [requestTimeout(timeoutMs)],
      }),
    );
  }

  async getNode(name: string): Promise<V1Node> {
    return this.call(`get node ${name}`, () => this.#core.readNode({ name }), {
      404: () => nodeMissing(name),
    });
  }

  /** A strategic merge patch, as `kubectl cordon` sends; only `spec.unschedulable` changes. */
  async setUnschedulable(name: string, unschedulable: boolean): Promise<V1Node> {
    const operation = `${unschedulable ? 'cordon' : 'uncordon'} node ${name}`;
    // Without the header the client would not send a strategic-merge content type.
    const options = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
    const body = { spec: { unschedulable } };
    return this.call(operation, () => this.#core.patchNode({ name, body }, options), {
      404: () => nodeMissing(name),
    });
  }

  /** Every pod bound to the node, in all namespaces, following `continue` tokens. */
  async listPodsOnNode(node: string): Promise<V1Pod[]> {
    const pods: V1Pod[] = [];
    let token: string | undefined;
    do {
      const request = { fieldSelector: `spec.nodeName=${node}`, limit: PAGE_SIZE, _continue: token };
      const page = await this.call(`list pods on node ${node}`, () =>
        this.#core.listPodForAllNamespaces(request),
      );
      pods.push(...page.items);
      token = page.metadata?._continue || undefined;
    } while (token);
    return pods;
  }

  /** The pod, or null when it no longer exists. */
  async getPod(namespace: string, name: string): Promise<V1Pod | null> {
    return this.call(
      `get pod ${namespace}/${name}`,
      () => this.#core.readNamespacedPod({ namespace, name }),
      {
        404: () => null,
      },
    );
  }

  async evictPod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<EvictionResponse> {
    const body = evictionBody(namespace, name, gracePeriodSeconds);
    return this.call(
      `evict pod ${namespace}/${name}`,
      async (): Promise<EvictionResponse> => {
        await this.#core.createNamespacedPodEviction({ namespace, name, body });
        return { outcome: 'evicted' };
      },
      {
        404: () => ({ outcome: 'gone' }),
        429: (status) => ({ outcome: 'blocked', reason: blockedReason(status) }),
      },
    );
  }

  /** Runs one call; an HTTP status listed in `expected` becomes a value, anything else a typed error. */
  private async call<T>(
    operation: string,
    run: () => Promise<T>,
    expected: Record<number, (status: StatusBody | undefined) => T> = {},
  ): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof ApiException) {
        const status = readStatus(err.body);
        const handle = expected[err.code];
        if (handle) return handle(status);
        throw new KubernetesApiError(operation, err.code, describe(status), { cause: err });
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

/** Aborts a request that has not finished in time; node-fetch honours the signal. */
function requestTimeout(timeoutMs: number): Middleware {
  return {
    pre: async (context) => {
      context.setSignal(AbortSignal.timeout(timeoutMs));
      return context;
    },
    post: async (response) => response,
  };
}

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
