import { PlacidError } from '../model/errors.js';
import { isRebuild, type RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';
import { PluginError } from './errors.js';
import { type HostFilter, PASS_ALL } from './filter.js';

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
  /** Index among the stages that run for this instance (for counts). */
  position: number;
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
    stages.push({ filter: run, state, position: stages.length });
  }
  return stages;
}

/** The filter with a `check` that raises `error` (a request it could not prepare). */
function raising(filter: HostFilter<unknown>, error: PlacidError): HostFilter<unknown> {
  return {
    ...filter,
    groupedBy: undefined,
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
