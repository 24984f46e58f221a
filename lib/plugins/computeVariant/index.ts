import { computeVariantFilter } from './filter.js';

// RequestMetadataCache (cache.ts) is not re-exported: filter.ts loads it, and lru-cache, on first use.
export { computeVariantFilter, type VariantRequest } from './filter.js';
export {
  type InstanceMetadataSource,
  type NovaMetadataResponse,
  novaMetadataSource,
  specMetadataSource,
} from './metadataSource.js';
export type { ComputeVariantOptions } from './settings.js';

/**
 * The instance Placid registers: options from `[compute_variant]`, instance metadata from the
 * request's own `instance_metadata` (no I/O). A plugin module exporting a filter of the same name
 * (say, one built with `novaMetadataSource`) replaces it.
 */
export const ComputeVariantFilter = computeVariantFilter();
