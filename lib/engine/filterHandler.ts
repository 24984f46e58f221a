import { PlacidError } from '../model/errors.js';
import type { HostState } from '../model/hostState.js';
import { isRebuild, type RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';
import { PluginError } from './errors.js';
import { type HostFilter, PASS, PASS_ALL, type Rejection } from './filter.js';

/** Nova's per-filter log line: how many hosts went in and came out. */
export interface FilterCount {
  filter: string;
  start: number;
  end: number;
  instance_index: number;
}

function isThenable(v: unknown): v is Promise<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

export interface Stage {
  filter: HostFilter<unknown>;
  state: unknown;
}

/** The hosts one filter removed for one instance, each with its rejection (for an explanation). */
export interface FilterRemovals {
  stage: Stage;
  spec: RequestSpec;
  ctx: EngineContext;
  hosts: HostState[];
  rejections: Rejection<unknown>[];
}

export interface Filtered {
  hosts: HostState[];
  counts: FilterCount[];
}

/**
 * Nova's `get_filtered_objects`: each enabled filter in order over the survivors of the one before
 * (skipping once-per-request filters after the first instance and non-rebuild filters on a
 * rebuild), each host answered pass or a rejection, stopping at the first filter that leaves no
 * host. `removals`, when given, gets every removed host with its rejection, filter by filter.
 */
export async function runFilters(
  filters: readonly HostFilter<unknown>[],
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  removals: FilterRemovals[] | null = null,
): Promise<Filtered> {
  const stages = await prepareStages(filters, spec, ctx);
  const counts: FilterCount[] = [];
  const survivors = hosts.slice();
  for (const stage of stages) {
    const start = survivors.length;
    if (stage.state !== PASS_ALL) {
      const removed: FilterRemovals | null = removals
        ? { stage, spec, ctx, hosts: [], rejections: [] }
        : null;
      keepPassing(stage, survivors, spec, ctx, removed);
      if (removed && removed.hosts.length > 0) removals!.push(removed);
    }
    counts.push({ filter: stage.filter.name, start, end: survivors.length, instance_index: ctx.index });
    if (survivors.length === 0) break;
  }
  return { hosts: survivors, counts };
}

/** Keeps the hosts `stage` passes in `hosts`, in order; a filter that throws is named with the host. */
function keepPassing(
  stage: Stage,
  hosts: HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  removed: FilterRemovals | null,
): void {
  const { filter, state } = stage;
  let kept = 0;
  let j = 0;
  try {
    for (; j < hosts.length; j++) {
      const host = hosts[j];
      const verdict = filter.check(host, spec, state, ctx);
      if (verdict === PASS) hosts[kept++] = host;
      else if (removed) {
        removed.hosts.push(host);
        removed.rejections.push(verdict);
      }
    }
  } catch (err) {
    throw wrap(filter.name, `failed on host ${hosts[j].host}`, err);
  }
  hosts.length = kept;
}

/** Every filter that runs for this instance, with its per-request state (PASS_ALL: no loop needed). */
export async function prepareStages(
  filters: readonly HostFilter<unknown>[],
  spec: RequestSpec,
  ctx: EngineContext,
): Promise<Stage[]> {
  const rebuild = isRebuild(spec);
  const stages: Stage[] = [];
  for (const filter of filters) {
    if (filter.runFilterOncePerRequest && ctx.index > 0) continue;
    let state: unknown = PASS_ALL;
    let run = filter;
    if (!rebuild || filter.runOnRebuild) {
      try {
        const prepared = filter.prepare ? filter.prepare(spec, ctx) : undefined;
        state = isThenable(prepared) ? await prepared : prepared;
      } catch (err) {
        // Nova meets a bad request only inside host_passes, so it raises only if a host gets this
        // far; with no host left by the earlier filters the answer is NoValidHost, not an error.
        run = raising(filter, wrap(filter.name, 'could not prepare the request', err));
        state = undefined;
      }
    }
    stages.push({ filter: run, state });
  }
  return stages;
}

/** The filter with a `check` that raises `error` (a request it could not prepare). */
function raising(filter: HostFilter<unknown>, error: PlacidError): HostFilter<unknown> {
  return {
    ...filter,
    check: () => {
      throw error;
    },
  };
}

export function wrap(plugin: string, what: string, err: unknown): PlacidError {
  if (err instanceof PlacidError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PluginError(plugin, `${what}: ${message}`, { cause: err });
}
