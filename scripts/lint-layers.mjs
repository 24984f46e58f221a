#!/usr/bin/env node
/**
 * The layer check in `npm run lint`: dependency-cruiser with the rules in .dependency-cruiser.cjs,
 * plus the one rule it cannot state, no cycle between parts (lib/<part>, functions, bin).
 * dependency-cruiser's folder scope finds cycles between leaf folders (lib/drivers/openstack is
 * not lib/drivers there), so a cycle that enters a part through a subfolder goes unseen; here
 * every module counts as its part, whatever its depth.
 *
 * `node scripts/lint-layers.mjs [dir]` checks dir (default: this repository) against these rules.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, format } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(process.argv[2] ? resolve(process.argv[2]) : repository);
const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs');
const ROOTS = ['lib', 'functions', 'bin'].filter((dir) => existsSync(dir));

const { output: result } = await cruise(
  ROOTS,
  { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } },
  undefined,
  { tsConfig: extractTSConfig(config.options.tsConfig.fileName) },
);

const cycles = partCycles(result.modules);
const { output: report } = await format(result, { outputType: 'err' });
const ruleErrors = result.summary.error;
if (ruleErrors > 0) process.stdout.write(report);
for (const cycle of cycles) {
  process.stdout.write(
    `\n  error no-part-cycles: ${cycle.parts.join(', ')} depend on each other; one cycle:\n`,
  );
  for (const hop of cycle.shortest) process.stdout.write(`      ${hop.from} → ${hop.to}  (${hop.example})\n`);
}
const total = ruleErrors + cycles.length;
process.stdout.write(
  `\nlayers: ${result.summary.totalCruised} modules, ${ruleErrors} import(s) against the rules, ` +
    `${cycles.length} cycle(s) between parts\n`,
);
process.exit(total > 0 ? 1 : 0);

/** lib/<part>, functions or bin; undefined outside the project (node_modules, node: built-ins). */
function partOf(path) {
  const [top, sub] = path.split('/');
  if (top === 'lib' && sub !== undefined && !sub.includes('.')) return `lib/${sub}`;
  if (top === 'functions' || top === 'bin') return top;
  return undefined;
}

/** Strongly connected sets of more than one part (Tarjan), each with its shortest cycle as an example. */
function partCycles(modules) {
  const edges = new Map();
  for (const m of modules) {
    const from = partOf(m.source);
    if (!from) continue;
    for (const d of m.dependencies) {
      const to = d.resolved ? partOf(d.resolved) : undefined;
      if (!to || to === from) continue;
      const key = `${from} → ${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, example: `${m.source} → ${d.resolved}` });
    }
  }
  const next = new Map();
  for (const { from, to } of edges.values()) next.set(from, [...(next.get(from) ?? []), to]);

  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const sets = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const set = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1) sets.push(set.sort());
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);

  return sets.map((parts) => ({ parts, shortest: shortestCycle(parts, edges) }));
}

/** Breadth-first from the first part back to itself, inside its strongly connected set. */
function shortestCycle(parts, edges) {
  const inside = [...edges.values()].filter((e) => parts.includes(e.from) && parts.includes(e.to));
  const start = parts[0];
  const cameBy = new Map();
  let frontier = [start];
  while (frontier.length > 0 && !cameBy.has(start)) {
    const nextFrontier = [];
    for (const part of frontier) {
      for (const e of inside) {
        if (e.from !== part || cameBy.has(e.to)) continue;
        cameBy.set(e.to, e);
        nextFrontier.push(e.to);
      }
    }
    frontier = nextFrontier;
  }
  const hops = [];
  let at = start;
  do {
    const e = cameBy.get(at);
    hops.unshift(e);
    at = e.from;
  } while (at !== start);
  return hops;
}
