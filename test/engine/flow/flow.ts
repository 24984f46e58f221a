import type { SchedulerConfig } from '../../../lib/config/options.js';
import type { ScheduleDecision } from '../../../lib/engine/explain.js';
import { defineFilter, type HostFilter, PASS, reject } from '../../../lib/engine/filter.js';
import { type ScheduleOptions, Scheduler } from '../../../lib/engine/scheduler.js';
import type { HostWeigher } from '../../../lib/engine/weigher.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import type { HostState } from '../../../lib/model/hostState.js';
import type { RequestSpec } from '../../../lib/model/requestSpec.js';
import { makeConfig, makeHost } from '../../helpers/factories.js';

/** Nova's defaults with the Placement pre-filter off, so a test sees only the filters it names. */
export function noPlacement(patch: Parameters<typeof makeConfig>[0] = {}): SchedulerConfig {
  return makeConfig({ ...patch, placid: { placement_prefilter: false, ...patch.placid } });
}

/** A host named `name` (node of the same name) with factory defaults and `input` on top. */
export function node(name: string, input: Partial<HostStateInput> = {}): HostState {
  return makeHost({ host: name, nodename: name, ...input });
}

/** One call a spy filter saw. */
export interface SeenCall {
  host: string;
  index: number;
}

/** A filter that records every host it is asked about and passes those `passes` accepts. */
export function spyFilter(
  name: string,
  opts: {
    once?: boolean;
    rebuild?: boolean;
    passes?: (host: HostState, spec: RequestSpec, index: number) => boolean;
  } = {},
): { filter: HostFilter<unknown>; calls: SeenCall[] } {
  const calls: SeenCall[] = [];
  const rejected = reject<unknown>((host) => `${name} rejects ${host.host}`);
  const filter = defineFilter<unknown>({
    name,
    runFilterOncePerRequest: opts.once ?? false,
    runOnRebuild: opts.rebuild ?? false,
    check: (host, spec, _state, ctx) => {
      calls.push({ host: host.host, index: ctx.index });
      return !opts.passes || opts.passes(host, spec, ctx.index) ? PASS : rejected;
    },
  });
  return { filter, calls };
}

/** A weigher whose raw weight is read from `weights` by host name (0 when absent). */
export function fixedWeigher(weights: Record<string, number>, name = 'FixedWeigher'): HostWeigher<unknown> {
  return { name, weigh: (h) => weights[h.host] ?? 0, multiplier: () => 1 };
}

export interface FlowRun {
  filters?: readonly HostFilter<unknown>[];
  weighers?: readonly HostWeigher<unknown>[];
  config?: SchedulerConfig;
  options?: ScheduleOptions;
}

/** Schedules `spec` over `hosts` with an explained decision unless the options say otherwise. */
export function schedule(
  hosts: HostState[],
  spec: RequestSpec,
  run: FlowRun = {},
): Promise<ScheduleDecision> {
  const scheduler = new Scheduler(run.config ?? noPlacement(), run.filters ?? [], run.weighers ?? []);
  return scheduler.schedule(hosts, spec, { explain: true, ...run.options });
}

/** Host names of the selected hosts, one per instance. */
export const selected = (d: ScheduleDecision): string[] => d.placements.map((p) => p.host.host);

/** Host names of each instance's alternates. */
export const alternates = (d: ScheduleDecision): string[][] =>
  d.placements.map((p) => p.alternates.map((h) => h.host));

/** [host, weight] of every weighed host, best first. */
export const weighed = (d: ScheduleDecision): [string, number][] =>
  (d.weighed ?? []).map((w) => [w.host.host, w.weight]);
