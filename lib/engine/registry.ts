import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importModule } from '../config/importModule.js';
import { weigherInRelease } from '../config/novaRelease.js';
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
  /**
   * Filters that ship with Placid but live above the engine (the planner's move filters, the
   * compute-variant plug-in): available without being listed in `available_filters`, like
   * Nova's under `all_filters`, and replaced by a custom filter of the same name.
   */
  builtins?: readonly HostFilter<unknown>[];
  weighers?: readonly HostWeigher<unknown>[];
  /** Weighers by the module path that exported them, for `weight_classes` entries that are paths. */
  weigherModules?: ReadonlyMap<string, readonly HostWeigher<unknown>[]>;
}

/** An entry that names a module file rather than a class: `./x.js`, `/abs/x.ts`, `x.mjs`. */
export function isModulePath(entry: string): boolean {
  return /^\.{0,2}\//.test(entry) || /\.[cm]?(js|ts)$/.test(entry);
}

const TYPESCRIPT = /\.[cm]?ts$/;
type TsxApi = typeof import('tsx/esm/api');
/** Plugin modules by file URL, as they load. */
type Modules = Map<string, Promise<Record<string, unknown>>>;
let tsx: Promise<TsxApi> | undefined;

/**
 * Imports a TypeScript plugin through tsx's `tsImport`, loaded once, when the first `.ts` plugin is
 * met (never for configs without one). `tsImport` compiles the file whatever its folder's module
 * type; a `.ts` file outside a `"type": "module"` package (`/etc/placid/plugins/x.ts`) is CommonJS
 * to Node, which tsx's registered ESM hooks alone do not compile.
 */
async function importTypeScript(path: string, url: string): Promise<Record<string, unknown>> {
  tsx ??= importModule<TsxApi>('tsx/esm/api').catch((err: Error) => {
    tsx = undefined;
    throw new ConfigError(
      `plugin module ${path} is TypeScript, which needs tsx (npm install tsx) or compiling to .js first: ${err.message}`,
      { cause: err },
    );
  });
  return (await tsx).tsImport(url, url);
}

/**
 * Loads custom plugins named by module path in `available_filters` or `weight_classes` (Nova's own
 * way to add filters). A module exports filters and/or weighers, as named exports or a default
 * array; `.ts`/`.mts`/`.cts` modules load through tsx, so plugins can be written in TypeScript.
 *
 * @example
 * // nova.conf: [filter_scheduler] available_filters = ./plugins/rack.ts
 * const plugins = await loadPluginModules(config, dirname(configPath));
 * const scheduler = createScheduler(config, plugins);
 */
export async function loadPluginModules(config: SchedulerConfig, baseDir: string): Promise<Plugins> {
  const filters: HostFilter<unknown>[] = [];
  const weighers: HostWeigher<unknown>[] = [];
  const weigherModules = new Map<string, HostWeigher<unknown>[]>();
  const origins = new Map<string, string>();
  const seen = new Set<unknown>();
  // One import per file, however it is named: tsx's tsImport, unlike import(), gives each call a
  // module of its own, and the same plugin twice would clash with itself.
  const modules: Modules = new Map();
  const paths = [
    ...config.filter_scheduler.available_filters,
    ...config.filter_scheduler.weight_classes,
  ].filter(isModulePath);
  for (const path of new Set(paths)) {
    const exported = await importPlugins(path, baseDir, modules);
    const modFilters = exported.filter(isFilter);
    const modWeighers = exported.filter(isWeigher);
    const old = exported.find(isOldFilter);
    if (old)
      throw new ConfigError(
        `plugin module ${path}: filter ${old.name} has hostPasses/explain, which Placid replaced by one check(host, spec, state, ctx) returning PASS or a rejection (see docs/plugins.md)`,
      );
    if (modFilters.length + modWeighers.length === 0) {
      throw new ConfigError(
        `plugin module ${path} exports no filter or weigher (export objects with a name and check, or name, weigh and multiplier)`,
      );
    }
    // The same object reached through two paths (or exported twice) is one plugin, not a clash.
    for (const f of modFilters.filter((p) => !seen.has(p))) {
      claimName(origins, 'filter', f.name, path);
      filters.push(f);
    }
    for (const w of modWeighers.filter((p) => !seen.has(p))) {
      claimName(origins, 'weigher', w.name, path);
      weighers.push(w);
    }
    for (const p of exported) seen.add(p);
    weigherModules.set(path, modWeighers);
  }
  return { filters, weighers, weigherModules };
}

/** A module's exports (named ones, and the items of exported arrays), each once. */
async function importPlugins(path: string, baseDir: string, modules: Modules): Promise<unknown[]> {
  const file = isAbsolute(path) ? path : resolve(baseDir, path);
  const url = pathToFileURL(file).href;
  let mod: Record<string, unknown>;
  try {
    const loading =
      modules.get(url) ?? (TYPESCRIPT.test(file) ? importTypeScript(path, url) : importModule(url));
    modules.set(url, loading);
    mod = await loading;
  } catch (err) {
    // No tsx: importTypeScript's own words.
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`cannot load plugin module ${path} (${file}): ${(err as Error).message}`, {
      cause: err,
    });
  }
  return [...new Set(Object.values(mod).flatMap((v) => (Array.isArray(v) ? v : [v])))];
}

function claimName(origins: Map<string, string>, kind: string, name: string, path: string): void {
  const other = origins.get(`${kind} ${name}`);
  if (other === path) throw new ConfigError(`plugin module ${path} exports two ${kind}s named ${name}`);
  if (other) throw new ConfigError(`plugin modules ${other} and ${path} both export a ${kind} named ${name}`);
  origins.set(`${kind} ${name}`, path);
}

function isFilter(v: unknown): v is HostFilter<unknown> {
  const o = v as HostFilter<unknown> | null;
  return typeof o?.name === 'string' && typeof o.check === 'function';
}

/** A filter written for the contract before `check` (a boolean hostPasses and an explain). */
function isOldFilter(v: unknown): v is { name: string } {
  const o = v as { name?: unknown; hostPasses?: unknown; check?: unknown } | null;
  return typeof o?.name === 'string' && typeof o.hostPasses === 'function' && o.check === undefined;
}

function isWeigher(v: unknown): v is HostWeigher<unknown> {
  const o = v as HostWeigher<unknown> | null;
  return typeof o?.name === 'string' && typeof o.weigh === 'function' && typeof o.multiplier === 'function';
}

/**
 * Resolves `enabled_filters` (order kept, as Nova runs them) against what is available: the
 * entries of `available_filters` (Nova's filters, by `all_filters` or by name), custom plugins, and
 * the built-ins passed in `plugins.builtins` (Placid's own), which are always available. A custom
 * plugin replaces a built-in of the same name.
 */
export function resolveFilters(config: SchedulerConfig, plugins: Plugins = {}): HostFilter<unknown>[] {
  const custom = new Map((plugins.filters ?? []).map((f) => [f.name, f]));
  const builtins = new Map((plugins.builtins ?? []).map((f) => [f.name, f]));
  const available = new Map<string, HostFilter<unknown>>(builtins);
  const known = [...Object.keys(NOVA_FILTERS), ...builtins.keys(), ...custom.keys()];
  for (const entry of config.filter_scheduler.available_filters) {
    if (entry === ALL_FILTERS) for (const [n, f] of Object.entries(NOVA_FILTERS)) available.set(n, f);
    else if (isModulePath(entry)) continue;
    else {
      const name = entry.split('.').pop() ?? entry;
      const f = custom.get(name) ?? builtins.get(name) ?? NOVA_FILTERS[name];
      if (!f)
        throw new ConfigError(
          `[filter_scheduler] available_filters: unknown filter ${entry}${didYouMean(name, known)}`,
        );
      available.set(name, f);
    }
  }
  for (const [n, f] of custom) available.set(n, f);
  return config.filter_scheduler.enabled_filters.map((name) => {
    const f = available.get(name);
    if (f) return f;
    const why = NOVA_FILTERS[name]
      ? ' (it exists but is not in available_filters)'
      : didYouMean(name, new Set([...available.keys(), ...known]));
    throw new ConfigError(`[filter_scheduler] enabled_filters: unknown filter ${name}${why}`);
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
    if (entry === ALL_WEIGHERS) {
      // The weighers of the Nova release decided as ([placid] nova_release); every one when unset.
      const release = config.placid.nova_release;
      for (const w of Object.values(NOVA_WEIGHERS)) if (weigherInRelease(w.name, release)) add(w);
    } else if (isModulePath(entry)) moduleWeighers(entry, plugins).forEach(add);
    else {
      const name = entry.split('.').pop() ?? entry;
      const w = byName.get(entry) ?? byName.get(name);
      if (!w) {
        const names = [...byName.keys()].filter((n) => !n.includes('.'));
        throw new ConfigError(
          `[filter_scheduler] weight_classes: unknown weigher ${entry}${didYouMean(name, names)}`,
        );
      }
      add(w);
    }
  }
  return out;
}

function moduleWeighers(path: string, plugins: Plugins): readonly HostWeigher<unknown>[] {
  const weighers = plugins.weigherModules?.get(path);
  if (!weighers)
    throw new ConfigError(
      `[filter_scheduler] weight_classes: plugin module ${path} was not loaded (loadPluginModules)`,
    );
  if (weighers.length === 0)
    throw new ConfigError(`[filter_scheduler] weight_classes: plugin module ${path} exports no weigher`);
  return weighers;
}

/** A scheduler for this configuration, with Nova's plugins and any custom ones. */
export function createScheduler(config: SchedulerConfig, plugins: Plugins = {}): Scheduler {
  return new Scheduler(config, resolveFilters(config, plugins), resolveWeighers(config, plugins));
}
