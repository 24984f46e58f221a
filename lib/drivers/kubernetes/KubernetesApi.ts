import type { z } from 'zod';
import type { ClusterAccess } from './connection.js';
import { KubernetesApiError, NodeNotFoundError } from './errors.js';
import {
  evictionBody,
  type Node,
  nodeSchema,
  type Pod,
  podListSchema,
  podSchema,
  type Status,
  statusSchema,
} from './resources.js';
import { type HttpResponse, HttpTransport, TransportFailure } from './transport.js';

/** What the Eviction API said about one pod. */
export type EvictionResponse =
  | { outcome: 'evicted' }
  | { outcome: 'gone' }
  /** 429: a PodDisruptionBudget (or API throttling) refused it for now. */
  | { outcome: 'blocked'; reason: string };

const PAGE_SIZE = 500;
const enc = encodeURIComponent;

/** The few core/v1 and policy/v1 calls a drain needs, with typed results and typed errors. */
export class KubernetesApi {
  readonly #authorization: string | undefined;
  private readonly transport: HttpTransport;

  constructor(access: ClusterAccess) {
    this.#authorization = access.authorization;
    this.transport = new HttpTransport(access.server, access.tls, access.timeoutMs);
  }

  async getNode(name: string): Promise<Node> {
    const res = await this.send(`get node ${name}`, 'GET', `/api/v1/nodes/${enc(name)}`);
    if (res.status === 404) throw new NodeNotFoundError(name);
    return this.parse(`get node ${name}`, res, nodeSchema);
  }

  /** A strategic merge patch, as `kubectl cordon` sends; only `spec.unschedulable` changes. */
  async setUnschedulable(name: string, unschedulable: boolean): Promise<Node> {
    const operation = `${unschedulable ? 'cordon' : 'uncordon'} node ${name}`;
    const body = JSON.stringify({ spec: { unschedulable } });
    const res = await this.send(
      operation,
      'PATCH',
      `/api/v1/nodes/${enc(name)}`,
      body,
      STRATEGIC_MERGE_PATCH,
    );
    if (res.status === 404) throw new NodeNotFoundError(name);
    return this.parse(operation, res, nodeSchema);
  }

  /** Every pod bound to the node, in all namespaces, following `continue` tokens. */
  async listPodsOnNode(node: string): Promise<Pod[]> {
    const operation = `list pods on node ${node}`;
    const pods: Pod[] = [];
    let token: string | null | undefined;
    do {
      const query = `fieldSelector=${enc(`spec.nodeName=${node}`)}&limit=${PAGE_SIZE}`;
      const path = `/api/v1/pods?${query}${token ? `&continue=${enc(token)}` : ''}`;
      const page = this.parse(operation, await this.send(operation, 'GET', path), podListSchema);
      pods.push(...(page.items ?? []));
      token = page.metadata.continue;
    } while (token);
    return pods;
  }

  /** The pod, or null when it no longer exists. */
  async getPod(namespace: string, name: string): Promise<Pod | null> {
    const operation = `get pod ${namespace}/${name}`;
    const res = await this.send(operation, 'GET', `/api/v1/namespaces/${enc(namespace)}/pods/${enc(name)}`);
    return res.status === 404 ? null : this.parse(operation, res, podSchema);
  }

  async evictPod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<EvictionResponse> {
    const operation = `evict pod ${namespace}/${name}`;
    const path = `/api/v1/namespaces/${enc(namespace)}/pods/${enc(name)}/eviction`;
    const body = JSON.stringify(evictionBody(namespace, name, gracePeriodSeconds));
    const res = await this.send(operation, 'POST', path, body, 'application/json');
    if (res.status === 404) return { outcome: 'gone' };
    if (res.status === 429) return { outcome: 'blocked', reason: blockedReason(readStatus(res.body)) };
    if (res.status < 200 || res.status >= 300) throw apiError(operation, res);
    return { outcome: 'evicted' };
  }

  /** Closes idle connections. */
  close(): void {
    this.transport.close();
  }

  private async send(
    operation: string,
    method: string,
    path: string,
    body?: string,
    contentType?: string,
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'placid' };
    if (this.#authorization) headers.Authorization = this.#authorization;
    if (contentType) headers['Content-Type'] = contentType;
    try {
      return await this.transport.request(method, path, headers, body);
    } catch (err) {
      if (err instanceof TransportFailure)
        throw new KubernetesApiError(operation, undefined, err.message, { cause: err });
      throw err;
    }
  }

  private parse<S extends z.ZodType>(operation: string, res: HttpResponse, schema: S): z.output<S> {
    if (res.status < 200 || res.status >= 300) throw apiError(operation, res);
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      throw new KubernetesApiError(operation, res.status, `response is not JSON: ${snippet(res.body)}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new KubernetesApiError(
        operation,
        res.status,
        `unexpected response: ${issue.path.join('.')}: ${issue.message}`,
      );
    }
    return parsed.data;
  }
}

const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

function readStatus(body: string): Status | undefined {
  try {
    const parsed = statusSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The budget's own words when the server gives them (which budget, how many healthy pods it needs). */
function blockedReason(status: Status | undefined): string {
  const causes = (status?.details?.causes ?? []).map((c) => c.message).filter((m): m is string => !!m);
  const parts = [status?.message, ...causes].filter((m): m is string => !!m);
  return parts.length > 0 ? parts.join(' ') : 'eviction refused with HTTP 429 (TooManyRequests)';
}

function apiError(operation: string, res: HttpResponse): KubernetesApiError {
  const status = readStatus(res.body);
  const detail = status?.message
    ? `${status.reason ? `${status.reason}: ` : ''}${status.message}`
    : snippet(res.body);
  return new KubernetesApiError(operation, res.status, detail);
}

function snippet(body: string): string {
  const text = body.trim();
  if (!text) return '(empty body)';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
