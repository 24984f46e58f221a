import type { FakeCluster } from './cluster.js';
import { disruptionBudgetStatus, nodeJson, podJson, statusJson } from './resources.js';

export interface FakeResponse {
  status: number;
  body: unknown;
}

interface Call {
  method: string;
  url: URL;
  contentType: string;
  body: string;
}

const NODE = /^\/api\/v1\/nodes\/([^/]+)$/;
const POD = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)$/;
const EVICTION = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/eviction$/;
const PATCH_TYPES = ['application/strategic-merge-patch+json', 'application/merge-patch+json'];

/** The subset of the Kubernetes API a drain uses, answered from the fake cluster's state. */
export function route(cluster: FakeCluster, call: Call, pageSize: number): FakeResponse {
  const path = call.url.pathname;
  const node = path.match(NODE);
  if (node) return nodeRoute(cluster, call, decodeURIComponent(node[1]));
  if (path === '/api/v1/pods' && call.method === 'GET') return listPods(cluster, call.url, pageSize);
  if (path === '/api/v1/nodes' && call.method === 'GET') {
    return ok({ apiVersion: 'v1', kind: 'NodeList', metadata: {}, items: cluster.nodes().map(nodeJson) });
  }
  const eviction = path.match(EVICTION);
  if (eviction && call.method === 'POST') {
    return evict(cluster, call, decodeURIComponent(eviction[1]), decodeURIComponent(eviction[2]));
  }
  const pod = path.match(POD);
  if (pod) return podRoute(cluster, call.method, decodeURIComponent(pod[1]), decodeURIComponent(pod[2]));
  return {
    status: 404,
    body: statusJson(404, 'NotFound', `the server could not find the requested resource`),
  };
}

function podRoute(cluster: FakeCluster, method: string, namespace: string, name: string): FakeResponse {
  if (method === 'GET') {
    const pod = cluster.pod(namespace, name);
    return pod ? ok(podJson(pod)) : notFound('pods', name);
  }
  if (method === 'DELETE')
    return cluster.delete(namespace, name) ? ok(statusJson(200, '', '')) : notFound('pods', name);
  return methodNotAllowed();
}

function nodeRoute(cluster: FakeCluster, call: Call, name: string): FakeResponse {
  const node = cluster.node(name);
  if (!node) return notFound('nodes', name);
  if (call.method === 'GET') return ok(nodeJson(node));
  if (call.method !== 'PATCH') return methodNotAllowed();
  if (!PATCH_TYPES.includes(call.contentType)) {
    return {
      status: 415,
      body: statusJson(
        415,
        'UnsupportedMediaType',
        `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES.join(', ')}`,
      ),
    };
  }
  const patch = parseJson(call.body) as
    | {
        spec?: { unschedulable?: boolean | null };
        metadata?: { annotations?: Record<string, string | null> };
      }
    | undefined;
  if (patch === undefined) return badRequest('patch body is not valid JSON');
  if (patch.spec && 'unschedulable' in patch.spec) node.unschedulable = patch.spec.unschedulable === true;
  // A merge patch: a null value removes the annotation.
  for (const [key, value] of Object.entries(patch.metadata?.annotations ?? {})) {
    if (value === null) delete node.annotations[key];
    else node.annotations[key] = value;
  }
  return ok(nodeJson(node));
}

function listPods(cluster: FakeCluster, url: URL, pageSize: number): FakeResponse {
  const selector = url.searchParams.get('fieldSelector') ?? '';
  const match = selector.match(/^spec\.nodeName=(.*)$/);
  if (selector && !match) return badRequest(`unsupported fieldSelector ${selector}`);
  const pods = cluster.pods(match ? match[1] : undefined);
  const limit = Math.min(Number(url.searchParams.get('limit') ?? pageSize) || pageSize, pageSize);
  const start = Number(url.searchParams.get('continue') ?? 0);
  const page = pods.slice(start, start + limit);
  const next = start + limit < pods.length ? String(start + limit) : undefined;
  return ok({
    apiVersion: 'v1',
    kind: 'PodList',
    metadata: next ? { continue: next } : {},
    items: page.map(podJson),
  });
}

function evict(cluster: FakeCluster, call: Call, namespace: string, name: string): FakeResponse {
  const body = parseJson(call.body) as
    | { apiVersion?: string; kind?: string; metadata?: { name?: string } }
    | undefined;
  if (body?.kind !== 'Eviction' || body.apiVersion !== 'policy/v1')
    return badRequest('body must be a policy/v1 Eviction');
  if (body.metadata?.name !== name)
    return badRequest(`name in URL (${name}) does not match the Eviction's metadata.name`);
  const outcome = cluster.evict(namespace, name);
  if (outcome.result === 'not-found') return notFound('pods', name);
  if (outcome.result === 'blocked') return { status: 429, body: disruptionBudgetStatus(outcome.pdbName) };
  return { status: 201, body: statusJson(201, '', '') };
}

const ok = (body: unknown): FakeResponse => ({ status: 200, body });
const notFound = (kind: string, name: string): FakeResponse => ({
  status: 404,
  body: statusJson(404, 'NotFound', `${kind} "${name}" not found`),
});
const badRequest = (message: string): FakeResponse => ({
  status: 400,
  body: statusJson(400, 'BadRequest', message),
});
const methodNotAllowed = (): FakeResponse => ({
  status: 405,
  body: statusJson(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
  ),
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
