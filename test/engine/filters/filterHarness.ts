import type { SchedulerConfig } from '../../../lib/config/options.js';
import { type HostFilter, PASS, PASS_ALL, type PassAll } from '../../../lib/engine/filter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import type { HostState } from '../../../lib/model/hostState.js';
import type { RequestSpec } from '../../../lib/model/requestSpec.js';
import { filterList } from '../../helpers/engineRuns.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../../helpers/factories.js';

/** How one filter run is set up; everything defaults to Nova's defaults and a small flavor. */
export interface Run {
  spec?: RequestSpec;
  config?: SchedulerConfig;
  /** The instance index of a multi-create (0 for the first). */
  index?: number;
}

/** A host from factory input; named h0 unless `host` says otherwise. */
export function host(input: Partial<HostStateInput> = {}): HostState {
  return makeHost({ host: 'h0', nodename: 'h0', ...input });
}

/** One aggregate holding `metadata`, as makeHost input. */
export function agg(metadata: Record<string, string>, name = 'agg'): HostStateInput['aggregates'] {
  return [{ name, metadata }];
}

/** What the filter's prepare returns for the run (sync filters only). */
export function prepared<S>(filter: HostFilter<S>, run: Run = {}): S | PassAll | undefined {
  const ctx = makeContext(run.config ?? makeConfig(), [], run.index ?? 0);
  return filter.prepare?.(run.spec ?? makeSpec(), ctx) as S | PassAll | undefined;
}

/** The engine's verdict on one host: prepare, then check unless prepare said PASS_ALL. */
export function passes<S>(filter: HostFilter<S>, h: HostState, run: Run = {}): boolean {
  const spec = run.spec ?? makeSpec();
  const ctx = makeContext(run.config ?? makeConfig(), [h], run.index ?? 0);
  const state = filter.prepare ? (filter.prepare(spec, ctx) as S | PassAll) : (undefined as S);
  if (state === PASS_ALL) return true;
  return filter.check(h, spec, state, ctx) === PASS;
}

/** The explanation for a host the filter rejects; throws when the host passes. */
export function explanation<S>(filter: HostFilter<S>, h: HostState, run: Run = {}): string {
  if (passes(filter, h, run)) throw new Error(`${filter.name} passes ${h.host}; nothing to explain`);
  const spec = run.spec ?? makeSpec();
  const ctx = makeContext(run.config ?? makeConfig(), [h], run.index ?? 0);
  const state = filter.prepare?.(spec, ctx) as S;
  const verdict = filter.check(h, spec, state, ctx);
  if (verdict === PASS) throw new Error(`${filter.name} passes ${h.host}; nothing to explain`);
  return verdict.message(h, spec, state, ctx);
}

/** Names of the hosts left after the engine's filter handler runs this one filter over them. */
export async function survivors<S>(
  filter: HostFilter<S>,
  hosts: HostState[],
  run: Run = {},
): Promise<string[]> {
  const ctx = makeContext(run.config ?? makeConfig(), hosts, run.index ?? 0);
  // The fleet's copies, as the engine sees them: hosts with equal aggregates share one array.
  const input = ctx.fleet.hosts.slice();
  const result = await filterList([filter as HostFilter<unknown>], input, run.spec ?? makeSpec(), ctx);
  return result.hosts.map((h) => h.host);
}

/** The once-per-request and rebuild flags as booleans (unset means false, as in Nova). */
export function flags<S>(filter: HostFilter<S>): { once: boolean; rebuild: boolean } {
  return { once: Boolean(filter.runFilterOncePerRequest), rebuild: Boolean(filter.runOnRebuild) };
}

/** A request Nova would treat as a rebuild. */
export function rebuildSpec(input: Parameters<typeof makeSpec>[0] = {}): RequestSpec {
  return makeSpec({ ...input, scheduler_hints: { ...input.scheduler_hints, _nova_check_type: ['rebuild'] } });
}
