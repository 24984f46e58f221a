import { PluginError, type RequestSpec } from '../../engine/pluginApi.js';

/**
 * Where the compute-variant filter reads an instance's metadata when the request has no hint.
 * Called at most once per request id (the filter caches the answer), never once per host.
 *
 * @example
 * const source: InstanceMetadataSource = {
 *   get: async (instanceUuid) => (await myCmdb.lookup(instanceUuid)).tags,
 * };
 */
export interface InstanceMetadataSource {
  /**
   * The instance's metadata (key → value). `spec` is there for sources that need no I/O; sources
   * that call an API use the uuid, and the request id for tracing.
   */
  get(instanceUuid: string, requestId: string, spec: RequestSpec): Promise<Record<string, string>>;
  /**
   * True when `get` does no I/O (reads the request itself): the filter then calls it directly and
   * keeps nothing in its cache, so two requests that happen to share an id cannot see each other's data.
   */
  readonly local?: boolean;
}

/** Reads `spec.instance_metadata`, which the caller filled in: no I/O. The default source. */
export const specMetadataSource: InstanceMetadataSource = {
  local: true,
  get: async (_instanceUuid, _requestId, spec) => spec.instance_metadata,
};

/** Nova's `GET /servers/{server_id}/metadata` response body. */
export interface NovaMetadataResponse {
  metadata: Record<string, string>;
}

/**
 * Calls Nova for the metadata: `GET /servers/{id}/metadata` through `fetchMetadata`, which the
 * caller implements with its own HTTP client and token (send `requestId` as
 * `X-OpenStack-Request-ID` to tie the call to the boot request in Nova's logs).
 *
 * @example
 * const source = novaMetadataSource(async (serverId, requestId) => {
 *   const res = await fetch(`${computeUrl}/servers/${serverId}/metadata`, {
 *     headers: { 'X-Auth-Token': token, 'X-OpenStack-Request-ID': requestId },
 *   });
 *   // A request that is not an instance yet (a what-if run) has no metadata to read.
 *   if (res.status === 404) return { metadata: {} };
 *   return res.json();
 * });
 */
export function novaMetadataSource(
  fetchMetadata: (serverId: string, requestId: string) => Promise<NovaMetadataResponse>,
): InstanceMetadataSource {
  return {
    get: async (instanceUuid, requestId) => {
      const body: unknown = await fetchMetadata(instanceUuid, requestId);
      return metadataOf(body, instanceUuid);
    },
  };
}

function metadataOf(body: unknown, serverId: string): Record<string, string> {
  const metadata = (body as { metadata?: unknown } | null)?.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new PluginError(
      'ComputeVariantFilter',
      `GET /servers/${serverId}/metadata returned no "metadata" object (got ${JSON.stringify(body)?.slice(0, 80)})`,
    );
  }
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value !== 'string') {
      throw new PluginError(
        'ComputeVariantFilter',
        `GET /servers/${serverId}/metadata: value of "${key}" is ${typeof value}, expected a string`,
      );
    }
  }
  return metadata as Record<string, string>;
}
