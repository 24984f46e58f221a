import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchedulerConfig } from '../../lib/config/options.js';
import { PASS, PASS_ALL } from '../../lib/engine/filter.js';
import { NOVA_FILTERS } from '../../lib/engine/filters/index.js';
import {
  ALL_FILTERS,
  ALL_WEIGHERS,
  isModulePath,
  loadPluginModules,
  resolveFilters,
  resolveWeighers,
} from '../../lib/engine/registry.js';
import { NOVA_WEIGHERS } from '../../lib/engine/weighers/index.js';
import { ConfigError } from '../../lib/model/errors.js';
import { ComputeVariantFilter } from '../../lib/plugins/computeVariant/index.js';
import { PLACID_FILTERS, withPlacidFilters } from '../../lib/rebalance/filters/index.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../helpers/factories.js';

const ROOT = resolve(import.meta.dirname, '../..');

function filters(enabled: string[], available: string[] = [ALL_FILTERS]): SchedulerConfig {
  return makeConfig({ filter_scheduler: { enabled_filters: enabled, available_filters: available } });
}

function weighers(classes: string[]): SchedulerConfig {
  return makeConfig({ filter_scheduler: { weight_classes: classes } });
}

const names = (plugins: readonly { name: string }[]) => plugins.map((p) => p.name);

describe('resolveFilters', () => {
  it('keeps the order of enabled_filters', () => {
    expect(names(resolveFilters(filters(['RamFilter', 'ComputeFilter'])))).toEqual([
      'RamFilter',
      'ComputeFilter',
    ]);
  });

  it.each([
    [
      'a typo of a Nova filter',
      'ComputeFliter',
      'unknown filter ComputeFliter (did you mean ComputeFilter?)',
    ],
    [
      'a typo of a Placid filter',
      'ComputeVariantFiltr',
      'unknown filter ComputeVariantFiltr (did you mean ComputeVariantFilter?)',
    ],
  ])('suggests the nearest name for %s', (_case, name, message) => {
    expect(() => resolveFilters(filters([name]), withPlacidFilters())).toThrow(
      `[filter_scheduler] enabled_filters: ${message}`,
    );
  });

  it('names no suggestion when nothing is close', () => {
    expect(() => resolveFilters(filters(['Zzz']))).toThrow(/unknown filter Zzz$/);
  });

  it('says when an enabled Nova filter is not in available_filters', () => {
    // Prepare
    const config = filters(
      ['ComputeFilter', 'RamFilter'],
      ['nova.scheduler.filters.compute_filter.ComputeFilter'],
    );
    // Act / Assess
    expect(() => resolveFilters(config)).toThrow(ConfigError);
    expect(() => resolveFilters(config)).toThrow(
      'enabled_filters: unknown filter RamFilter (it exists but is not in available_filters)',
    );
  });

  it('resolves dotted Nova class paths in available_filters', () => {
    const config = filters(['ComputeFilter'], ['nova.scheduler.filters.compute_filter.ComputeFilter']);
    expect(resolveFilters(config)).toEqual([NOVA_FILTERS.ComputeFilter]);
  });

  it('rejects an unknown available_filters entry with a suggestion', () => {
    expect(() => resolveFilters(filters([], ['nova.scheduler.filters.ram_filter.RamFitler']))).toThrow(
      '[filter_scheduler] available_filters: unknown filter nova.scheduler.filters.ram_filter.RamFitler (did you mean RamFilter?)',
    );
  });

  it("makes Placid's filters available without listing them", () => {
    const config = filters(
      ['ComputeFilter', 'ComputeVariantFilter'],
      ['nova.scheduler.filters.compute_filter.ComputeFilter'],
    );
    expect(resolveFilters(config, withPlacidFilters())).toEqual([
      NOVA_FILTERS.ComputeFilter,
      ComputeVariantFilter,
    ]);
  });

  it('registers the compute-variant filter among Placid filters under its name', () => {
    expect(PLACID_FILTERS.find((f) => f.name === 'ComputeVariantFilter')).toBe(ComputeVariantFilter);
  });

  it('lets a plugin replace a built-in filter of the same name', () => {
    // Prepare
    const mine = { name: 'ComputeVariantFilter', check: () => PASS };
    // Act
    const resolved = resolveFilters(
      filters(['ComputeVariantFilter']),
      withPlacidFilters({ filters: [mine] }),
    );
    // Assess
    expect(resolved).toEqual([mine]);
  });
});

describe('resolveWeighers', () => {
  it.each([
    ['a class name', 'RAMWeigher', 'RAMWeigher'],
    ['a dotted Nova path', 'nova.scheduler.weights.ram.RAMWeigher', 'RAMWeigher'],
    [
      'a dotted path to a renamed module',
      'nova.scheduler.weights.compute.BuildFailureWeigher',
      'BuildFailureWeigher',
    ],
  ])('resolves %s', (_case, entry, name) => {
    expect(names(resolveWeighers(weighers([entry])))).toEqual([name]);
  });

  it('expands all_weighers to every Nova weigher once', () => {
    const resolved = resolveWeighers(weighers([ALL_WEIGHERS, 'RAMWeigher']));
    expect(resolved).toEqual(Object.values(NOVA_WEIGHERS));
  });

  it('suggests the nearest class for a mistyped dotted path', () => {
    expect(() => resolveWeighers(weighers(['nova.scheduler.weights.ram.RAMWieghr']))).toThrow(
      'unknown weigher nova.scheduler.weights.ram.RAMWieghr (did you mean RAMWeigher?)',
    );
  });

  it('rejects a weigher module path that was not loaded', () => {
    expect(() => resolveWeighers(weighers(['./mine.mjs']))).toThrow(
      'plugin module ./mine.mjs was not loaded',
    );
  });
});

describe('isModulePath', () => {
  it.each([
    ['./plugins/x.js', true],
    ['../x.ts', true],
    ['/abs/x', true],
    ['x.mjs', true],
    ['x.mts', true],
    ['x.cjs', true],
    ['nova.scheduler.filters.all_filters', false],
    ['ComputeFilter', false],
  ])('%s -> %s', (entry, expected) => {
    expect(isModulePath(entry)).toBe(expected);
  });
});

describe('loadPluginModules', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'placid-plugins-'));
    await writeFile(
      join(dir, 'rack.mjs'),
      `export const RackFilter = { name: 'RackFilter', check: (host) => host.extra.rack === 'r1' || { message: () => 'other rack' } };
       export default [{ name: 'RackWeigher', weigh: () => 1, multiplier: () => 1 }];`,
    );
    await writeFile(join(dir, 'empty.mjs'), 'export const version = 1;\n');
    await writeFile(
      join(dir, 'rack2.mjs'),
      `export const F = { name: 'RackFilter', check: () => ({ message: () => 'no' }) };\n`,
    );
    await writeFile(join(dir, 'broken.mjs'), 'export const = ;\n');
    await writeFile(
      join(dir, 'old.mjs'),
      `export const OldFilter = { name: 'OldFilter', hostPasses: () => true, explain: () => 'old' };\n`,
    );
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const config = (available: string[], classes: string[] = []) =>
    makeConfig({
      filter_scheduler: {
        available_filters: [ALL_FILTERS, ...available],
        weight_classes: [ALL_WEIGHERS, ...classes],
      },
    });

  it('loads a TypeScript plugin from examples/plugins, written against the public API', async () => {
    // Prepare
    const cfg = config(['./examples/plugins/maxInstancesPerRole.ts']);
    cfg.filter_scheduler.enabled_filters = ['MaxInstancesPerRoleFilter'];
    // Act
    const plugins = await loadPluginModules(cfg, ROOT);
    const [filter] = resolveFilters(cfg, plugins);
    // Assess
    expect(filter.name).toBe('MaxInstancesPerRoleFilter');
    expect(filter.prepare!(makeSpec(), makeContext())).toBe(PASS_ALL);
  });

  it('runs the example TypeScript plugin: at most one instance of a role per host by default', async () => {
    // Prepare
    const plugins = await loadPluginModules(config(['./examples/plugins/maxInstancesPerRole.ts']), ROOT);
    const [filter] = plugins.filters!;
    const spec = makeSpec({ scheduler_hints: { role: 'etcd' } });
    const ctx = makeContext();
    const etcd = { uuid: 'i1', metadata: { role: 'etcd' } };
    const busy = makeHost({ host: 'busy', instances: { i1: etcd } });
    const roomy = makeHost({
      host: 'roomy',
      instances: { i1: etcd },
      aggregates: [{ name: 'big', hosts: ['roomy'], metadata: { max_instances_per_role: '2' } }],
    });
    // Act
    const state = filter.prepare!(spec, ctx);
    // Assess
    expect([busy, roomy].map((h) => filter.check(h, spec, state, ctx) === PASS)).toEqual([false, true]);
  });

  it('loads a TypeScript plugin from a plain-node ESM bundle, as an embedder bundles the engine (through tsx)', async () => {
    // Prepare: bundle the registry as an application embedding the engine would
    const bundle = join(dir, 'registry.mjs');
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await build({
      entryPoints: [join(ROOT, 'lib/engine/registry.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
    });
    // And one outside any ES-module package (no package.json above tmpdir), where Node reads .ts as
    // CommonJS; vitest's own loader compiles any .ts, so only a plain node shows the difference.
    // It is named twice (absolute, relative): one plugin, not two that clash.
    const outside = await mkdtemp(join(tmpdir(), 'placid-plugin-'));
    const rack = join(outside, 'rack.ts');
    await writeFile(
      rack,
      "const RACK: { message: () => string } = { message: () => 'not in rack' };\nexport const RackOnly = { name: 'RackOnly', check: (host: { host: string }) => (host.host.startsWith('r') ? true : RACK) };\n",
    );
    const script = `
      import { loadPluginModules } from ${JSON.stringify(pathToFileURL(bundle).href)};
      const config = { filter_scheduler: { available_filters: ['./examples/plugins/maxInstancesPerRole.ts', ${JSON.stringify(rack)}, ${JSON.stringify(relative(ROOT, rack))}], weight_classes: [] } };
      const plugins = await loadPluginModules(config, ${JSON.stringify(ROOT)});
      console.log(plugins.filters.map((f) => f.name).join(','));`;
    // Act
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
    });
    // Assess
    expect(stdout.trim()).toBe('MaxInstancesPerRoleFilter,RackOnly');
    await rm(outside, { recursive: true, force: true });
  });

  it('loads a .mjs module by absolute path, with named and default-array exports', async () => {
    // Prepare
    const file = join(dir, 'rack.mjs');
    const cfg = config([file], [file]);
    cfg.filter_scheduler.enabled_filters = ['RackFilter'];
    // Act
    const plugins = await loadPluginModules(cfg, ROOT);
    // Assess
    expect(names(resolveFilters(cfg, plugins))).toEqual(['RackFilter']);
    expect(names(resolveWeighers(cfg, plugins)).at(-1)).toBe('RackWeigher');
  });

  it('resolves a relative module path against the base directory', async () => {
    const plugins = await loadPluginModules(config(['./rack.mjs']), dir);
    expect(names(plugins.filters!)).toEqual(['RackFilter']);
  });

  it('loads a module named twice (as a filter and a weigher source) once', async () => {
    const plugins = await loadPluginModules(config(['./rack.mjs'], ['./rack.mjs']), dir);
    expect([names(plugins.filters!), names(plugins.weighers!)]).toEqual([['RackFilter'], ['RackWeigher']]);
  });

  it.each([
    [
      'a module exporting nothing usable',
      './empty.mjs',
      /plugin module \.\/empty\.mjs exports no filter or weigher/,
    ],
    ['a missing module', './missing.mjs', /cannot load plugin module \.\/missing\.mjs/],
    ['a module that does not parse', './broken.mjs', /cannot load plugin module \.\/broken\.mjs/],
    [
      'a filter written for hostPasses/explain',
      './old.mjs',
      /plugin module \.\/old\.mjs: filter OldFilter has hostPasses\/explain, which Placid replaced by one check/,
    ],
  ])('rejects %s with a ConfigError', async (_case, path, message) => {
    const loading = loadPluginModules(config([path]), dir);
    await expect(loading).rejects.toThrow(ConfigError);
    await expect(loading).rejects.toThrow(message);
  });

  it('rejects two modules exporting filters of the same name', async () => {
    await expect(loadPluginModules(config(['./rack.mjs', './rack2.mjs']), dir)).rejects.toThrow(
      'plugin modules ./rack.mjs and ./rack2.mjs both export a filter named RackFilter',
    );
  });

  it('rejects a weight_classes module that exports no weigher', async () => {
    // Prepare
    const cfg = config([], ['./examples/plugins/maxInstancesPerRole.ts']);
    const plugins = await loadPluginModules(cfg, ROOT);
    // Act / Assess
    expect(() => resolveWeighers(cfg, plugins)).toThrow('exports no weigher');
  });
});
