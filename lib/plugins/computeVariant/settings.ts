import { ConfigError, type SchedulerConfig } from '../../engine/pluginApi.js';
import type { InstanceMetadataSource } from './metadataSource.js';

/** Each option overrides its `[compute_variant]` config option. */
export interface ComputeVariantOptions {
  /** Instance metadata, read when the request has no hint (default: the request's `instance_metadata`). */
  source?: InstanceMetadataSource;
  /** Aggregate metadata key holding a host's variant(s) (`[compute_variant] aggregate_key`). */
  aggregateKey?: string;
  /** Scheduler hint naming the requested variant (`[compute_variant] hint`). */
  hint?: string;
  /** Instance metadata key naming the requested variant (`[compute_variant] metadata_key`). */
  metadataKey?: string;
  /** Requests whose metadata lookups are kept (`[compute_variant] cache_size`). */
  cacheSize?: number;
}

export interface Settings {
  aggregateKey: string;
  hint: string;
  metadataKey: string;
  cacheSize: number;
}

/** Options first, then `[compute_variant]` (read per request, so a reloaded config applies). */
export function settings(options: ComputeVariantOptions, config: SchedulerConfig): Settings {
  const group = config.compute_variant;
  const s: Settings = {
    aggregateKey: options.aggregateKey ?? group.aggregate_key,
    hint: options.hint ?? group.hint,
    metadataKey: options.metadataKey ?? group.metadata_key,
    cacheSize: options.cacheSize ?? group.cache_size,
  };
  for (const [option, value] of [
    ['aggregate_key', s.aggregateKey],
    ['hint', s.hint],
    ['metadata_key', s.metadataKey],
  ] as const) {
    if (value.trim() === '') throw new ConfigError(`[compute_variant] ${option} must not be empty`);
  }
  if (!Number.isInteger(s.cacheSize) || s.cacheSize < 1)
    throw new ConfigError(`[compute_variant] cache_size must be an integer >= 1, got ${s.cacheSize}`);
  return s;
}

/** Rejects bad factory options at once, before any request. */
export function checkOptions(options: ComputeVariantOptions): void {
  for (const key of ['aggregateKey', 'hint', 'metadataKey'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === ''))
      throw new ConfigError(
        `computeVariantFilter: ${key} must be a non-empty string, got ${JSON.stringify(value)}`,
      );
  }
  const size = options.cacheSize;
  if (size !== undefined && (!Number.isInteger(size) || size < 1))
    throw new ConfigError(`computeVariantFilter: cacheSize must be an integer >= 1, got ${size}`);
}
