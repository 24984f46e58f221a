import {
  aggregateMetadata,
  defineFilter,
  type HostFilter,
  type HostState,
  PASS,
  PASS_ALL,
  PlacidError,
  PluginError,
  type RequestSpec,
  reject,
  schedulerHint,
} from '../../engine/pluginApi.js';
import type { RequestMetadataCache } from './cache.js';
import { specMetadataSource } from './metadataSource.js';
import { type ComputeVariantOptions, checkOptions, settings } from './settings.js';

const NAME = 'ComputeVariantFilter';

const OTHER_VARIANT = reject<VariantRequest>(
  (host, _spec, request) => `${describeHost(host, request.aggregateKey)}, ${describeRequest(request)}`,
);

/** What the request asks for, decided once per request in `prepare`. */
export interface VariantRequest {
  /** Any of these will do (a request may name several, comma-separated). */
  readonly variants: readonly string[];
  /** Where they came from, for explanations: `hint compute_variant`. */
  readonly from: string;
  readonly aggregateKey: string;
}

/**
 * Passes hosts of the compute variant (hardware vendor × host OS, say) the request names, so QA can
 * target one node type while old and new coexist. A host's variants are its aggregates' metadata
 * `aggregate_key` (comma-separated values allowed); the request names a variant through the scheduler
 * hint, or else through instance metadata (the web console cannot send hints). Hosts without a
 * variant fail only when a variant is requested; a request naming none passes every host.
 *
 * The metadata lookup happens once per request id, cached in a small LRU: retries and the instances
 * of a multi-create cost one call, never one per host. The cache only saves calls; answers depend
 * on the request and the host alone, so create, resize and migrate are filtered alike.
 *
 * @example
 * // A plugin module listed in [filter_scheduler] available_filters, replacing the default instance:
 * export const ComputeVariantFilter = computeVariantFilter({ source: novaMetadataSource(getMetadata) });
 */
export function computeVariantFilter(options: ComputeVariantOptions = {}): HostFilter<VariantRequest> {
  checkOptions(options);
  const source = options.source ?? specMetadataSource;
  // The LRU (lru-cache) is loaded on the first lookup, not with the filter: every scheduler
  // registers this filter, and most never look metadata up (a CLI start paid ~5 ms for it).
  let cache: Promise<RequestMetadataCache> | undefined;
  let cacheSizeOf = 0;

  const instanceMetadata = async (spec: RequestSpec, cacheSize: number): Promise<Record<string, string>> => {
    const uuid = spec.instance_uuid;
    if (source.local) return source.get(uuid ?? '', spec.request_id, spec);
    // No instance yet (nothing to look up), so only a hint can name a variant.
    if (!uuid) return {};
    if (cache === undefined || cacheSizeOf !== cacheSize) {
      cacheSizeOf = cacheSize;
      cache = import('./cache.js').then(({ RequestMetadataCache }) => new RequestMetadataCache(cacheSize));
    }
    // Concurrent prepares wait on one cache, then look up in turn: the first one's pending
    // lookup is in the cache before the next one reads it.
    return (await cache).lookup(spec.request_id, () => source.get(uuid, spec.request_id, spec));
  };

  return defineFilter<VariantRequest>({
    name: NAME,
    // Aggregates do not change between the instances of one request, so once is enough.
    runFilterOncePerRequest: true,
    prepare: async (spec, ctx) => {
      const s = settings(options, ctx.config);
      const hinted = variantsOf(schedulerHint(spec, s.hint));
      if (hinted.length > 0)
        return { variants: hinted, from: `hint ${s.hint}`, aggregateKey: s.aggregateKey };
      let metadata: Record<string, string>;
      try {
        metadata = await instanceMetadata(spec, s.cacheSize);
      } catch (err) {
        if (err instanceof PlacidError) throw err;
        const why = err instanceof Error ? err.message : String(err);
        const what = `instance ${spec.instance_uuid} (request ${spec.request_id})`;
        throw new PluginError(NAME, `could not read the metadata of ${what}: ${why}`, { cause: err });
      }
      const value: unknown = metadata[s.metadataKey];
      if (value !== undefined && typeof value !== 'string')
        throw new PluginError(
          NAME,
          `instance metadata ${s.metadataKey} is ${typeof value}, expected a string`,
        );
      const asked = variantsOf(value);
      if (asked.length === 0) return PASS_ALL;
      return { variants: asked, from: `instance metadata ${s.metadataKey}`, aggregateKey: s.aggregateKey };
    },
    check: (host, _spec, request, ctx) => {
      const offered = ctx.fleet.memberships.metadata(host).get(request.aggregateKey);
      if (!offered) return OTHER_VARIANT;
      for (const variant of request.variants) if (offered.has(variant)) return PASS;
      return OTHER_VARIANT;
    },
  });
}

/** A hint or metadata value as a list of variants: lists and comma-separated values, blanks dropped. */
function variantsOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(','));
  return [...new Set(parts.map((v) => v.trim()).filter((v) => v !== ''))];
}

function describeHost(host: HostState, key: string): string {
  const tagged = host.aggregates.filter((a) => Object.hasOwn(a.metadata, key)).map((a) => a.name);
  const variants = [...(aggregateMetadata(host).get(key) ?? [])].filter((v) => v !== '');
  if (variants.length === 0) {
    const why = tagged.length === 0 ? `no aggregate sets ${key}` : `${key} is empty in ${tagged.join(', ')}`;
    return `host has no variant (${why})`;
  }
  return `host variant is ${variants.join(', ')} (${tagged.length === 1 ? 'aggregate' : 'aggregates'} ${tagged.join(', ')})`;
}

function describeRequest(request: VariantRequest): string {
  return `request asks for ${request.variants.join(' or ')} (${request.from})`;
}
