import { PlacidError } from '../model/errors.js';
import type { HostState } from '../model/hostState.js';
import { isRebuild, type RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';
import { PluginError } from './errors.js';
import { type HostFilter, PASS_ALL } from './filter.js';

/** A host a filter removed, with what is needed to explain it later (reasons are built lazily). */
export interface Removal {
  host: HostState;
  filter: HostFilter<unknown>;
  state: unknown;
  spec: RequestSpec;
  ctx: EngineContext;
}

/** Nova's per-filter log line: how many hosts went in and came out. */
export interface FilterCount {
  filter: string;
  start: number;
  end: number;
  instance_index: number;
}

export interface FilterRun {
  hosts: HostState[];
  counts: FilterCount[];
  removals: Removal[];
}

function isThenable(v: unknown): v is Promise<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

/**
 * Nova's `get_filtered_objects`: run each enabled filter in order over the survivors of the one
 * before, skipping once-per-request filters after the first instance and non-rebuild filters on a
 * rebuild, and stop at the first filter that leaves no host.
 */
export async function runFilters(
  filters: readonly HostFilter<unknown>[],
  input: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  recordRemovals: boolean,
): Promise<FilterRun> {
  const rebuild = isRebuild(spec);
  const counts: FilterCount[] = [];
  const removals: Removal[] = [];
  const hosts = input.slice();
  for (const filter of filters) {
    if (filter.runFilterOncePerRequest && ctx.index > 0) continue;
    const start = hosts.length;
    if (rebuild && !filter.runOnRebuild) {
      counts.push({ filter: filter.name, start, end: start, instance_index: ctx.index });
      continue;
    }
    let state: unknown;
    try {
      const prepared = filter.prepare ? filter.prepare(spec, ctx) : undefined;
      state = isThenable(prepared) ? await prepared : prepared;
    } catch (err) {
      throw wrap(filter.name, 'could not prepare the request', err);
    }
    if (state !== PASS_ALL) {
      let kept = 0;
      for (let i = 0; i < hosts.length; i++) {
        const host = hosts[i];
        let ok: boolean;
        try {
          ok = filter.hostPasses(host, spec, state, ctx);
        } catch (err) {
          throw wrap(filter.name, `failed on host ${host.host}`, err);
        }
        if (ok) hosts[kept++] = host;
        else if (recordRemovals) removals.push({ host, filter, state, spec, ctx });
      }
      hosts.length = kept;
    }
    counts.push({ filter: filter.name, start, end: hosts.length, instance_index: ctx.index });
    if (hosts.length === 0) break;
  }
  return { hosts, counts, removals };
}

function wrap(plugin: string, what: string, err: unknown): PlacidError {
  if (err instanceof PlacidError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PluginError(plugin, `${what}: ${message}`, { cause: err });
}

/** The reason a removal happened, in words. */
export function explainRemoval(r: Removal): string {
  if (!r.filter.explain) return `rejected by ${r.filter.name}`;
  try {
    return r.filter.explain(r.host, r.spec, r.state, r.ctx);
  } catch {
    return `rejected by ${r.filter.name}`;
  }
}
