import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SchedulerConfig } from '../config/options.js';
import { didYouMean } from '../config/suggest.js';
import { ConfigError } from '../model/errors.js';
import type { HostFilter } from './filter.js';
import { NOVA_FILTERS } from './filters/index.js';
import { Scheduler } from './scheduler.js';
import type { HostWeigher } from './weigher.js';
import { NOVA_WEIGHERS } from './weighers/index.js';

export const ALL_FILTERS = 'nova.scheduler.filters.all_filters';
export const ALL_WEIGHERS = 'nova.scheduler.weights.all_weighers';

/** Filters and weighers registered in code, in addition to Nova's (custom plugins). */
export interface Plugins {
  filters?: readonly HostFilter<unknown>[];
  weighers?: readonly HostWeigher<unknown>[];
  /** Weighers by the module path that exported them, for `weight_classes` entries that are paths. */
  weigherModules?: ReadonlyMap<string, readonly HostWeigher<unknown>[]>;
}

/** An entry that names a module file rather than a class: `./x.js`, `/abs/x.ts`, `x.mjs`. */
export function isModulePath(entry: string): boolean {
  return /^\.{0,2}\//.test(entry) || /\.(m?js|ts|mts)$/.test(entry);
}

/**
 * Loads custom plugins named by module path in `available_filters` or `weight_classes` (Nova's own
 * way to add filters). A module exports filters and/or weighers, as named exports or a default array.
 */
export async function loadPluginModules(config: SchedulerConfig, baseDir: string): Promise<Plugins> {
  const filters: HostFilter<unknown>[] = [];
  const weighers: HostWeigher<unknown>[] = [];
  const weigherModules = new Map<string, HostWeigher<unknown>[]>();
  const paths = [
    ...config.filter_scheduler.available_filters,
    ...config.filter_scheduler.weight_classes,
  ].filter(isModulePath);
  for (const path of new Set(paths)) {
    const file = isAbsolute(path) ? path : resolve(baseDir, path);
    let mod: Record<string, unknown>;
    try {
      mod = await import(pathToFileURL(file).href);
    } catch (err) {
      throw new ConfigError(`cannot load plugin module ${path} (${file}): ${(err as Error).message}`, {
        cause: err,
      });
    }
    const exported = Object.values(mod).flatMap((v) => (Array.isArray(v) ? v : [v]));
    const modFilters = exported.filter(isFilter);
    const modWeighers = exported.filter(isWeigher);
    if (modFilters.length + modWeighers.length === 0) {
      throw new ConfigError(`plugin module ${path} exports no filter or weigher`);
    }
    filters.push(...modFilters);
    weighers.push(...modWeighers);
    weigherModules.set(path, modWeighers);
  }
  return { filters, weighers, weigherModules };
}

function isFilter(v: unknown): v is HostFilter<unknown> {
  const o = v as HostFilter<unknown> | null;
  return typeof o?.name === 'string' && typeof o.hostPasses === 'function';
}

function isWeigher(v: unknown): v is HostWeigher<unknown> {
  const o = v as HostWeigher<unknown> | null;
  return typeof o?.name === 'string' && typeof o.weigh === 'function' && typeof o.multiplier === 'function';
}

/** Resolves `enabled_filters` against `available_filters` (order kept, as Nova runs them). */
export function resolveFilters(config: SchedulerConfig, plugins: Plugins = {}): HostFilter<unknown>[] {
  const available = new Map<string, HostFilter<unknown>>();
  const custom = new Map((plugins.filters ?? []).map((f) => [f.name, f]));
  for (const entry of config.filter_scheduler.available_filters) {
    if (entry === ALL_FILTERS) for (const [n, f] of Object.entries(NOVA_FILTERS)) available.set(n, f);
    else if (isModulePath(entry)) continue;
    else {
      const name = entry.split('.').pop() ?? entry;
      const f = NOVA_FILTERS[name] ?? custom.get(name);
      if (!f)
        throw new ConfigError(
          `[filter_scheduler] available_filters: unknown filter ${entry}${didYouMean(name, [...Object.keys(NOVA_FILTERS), ...custom.keys()])}`,
        );
      available.set(name, f);
    }
  }
  for (const [n, f] of custom) available.set(n, f);
  return config.filter_scheduler.enabled_filters.map((name) => {
    const f = available.get(name);
    if (f) return f;
    const known = NOVA_FILTERS[name]
      ? ' (it exists but is not in available_filters)'
      : didYouMean(name, available.keys());
    throw new ConfigError(`[filter_scheduler] enabled_filters: unknown filter ${name}${known}`);
  });
}

/** Resolves `weight_classes`: class names, dotted Nova paths, all_weighers, or custom plugin names. */
export function resolveWeighers(config: SchedulerConfig, plugins: Plugins = {}): HostWeigher<unknown>[] {
  const byName = new Map<string, HostWeigher<unknown>>();
  for (const w of [...Object.values(NOVA_WEIGHERS), ...(plugins.weighers ?? [])]) {
    byName.set(w.name, w);
    if (w.novaPath) byName.set(w.novaPath, w);
  }
  const out: HostWeigher<unknown>[] = [];
  const add = (w: HostWeigher<unknown>) => {
    if (!out.includes(w)) out.push(w);
  };
  for (const entry of config.filter_scheduler.weight_classes) {
    if (entry === ALL_WEIGHERS) Object.values(NOVA_WEIGHERS).forEach(add);
    else if (isModulePath(entry)) (plugins.weigherModules?.get(entry) ?? []).forEach(add);
    else {
      const w = byName.get(entry) ?? byName.get(entry.split('.').pop() ?? entry);
      if (!w)
        throw new ConfigError(
          `[filter_scheduler] weight_classes: unknown weigher ${entry}${didYouMean(entry, Object.keys(NOVA_WEIGHERS))}`,
        );
      add(w);
    }
  }
  return out;
}

/** A scheduler for this configuration, with Nova's plugins and any custom ones. */
export function createScheduler(config: SchedulerConfig, plugins: Plugins = {}): Scheduler {
  return new Scheduler(config, resolveFilters(config, plugins), resolveWeighers(config, plugins));
}
