import type { HostState } from '../../model/hostState.js';
import { defineFilter, PASS, reject } from '../filter.js';

const TOO_MANY_INSTANCES = reject((host, _spec, _state, ctx) =>
  tooManyInstances(
    host,
    ctx.config.filter_scheduler.max_instances_per_host,
    '[filter_scheduler] max_instances_per_host',
  ),
);

/**
 * Passes hosts running fewer instances than `[filter_scheduler] max_instances_per_host`. Runs for
 * every instance of a multi-create, so each earlier pick on a host counts as one more instance.
 */
export const NumInstancesFilter = defineFilter({
  name: 'NumInstancesFilter',
  check: (host, _spec, _state, ctx) =>
    host.num_instances < ctx.config.filter_scheduler.max_instances_per_host ? PASS : TOO_MANY_INSTANCES,
});

/** The explanation shared with AggregateNumInstancesFilter; `origin` says where the limit came from. */
export function tooManyInstances(host: HostState, max: number, origin: string): string {
  return (
    `host runs ${host.num_instances} instances; max_instances_per_host is ${max} (${origin}), ` +
    `so it needs fewer than ${max}`
  );
}
