import type { HostState } from '../../model/hostState.js';
import { defineFilter, PASS, reject } from '../filter.js';

const TOO_MANY_IO_OPS = reject((host, _spec, _state, ctx) =>
  tooManyIoOps(
    host,
    ctx.config.filter_scheduler.max_io_ops_per_host,
    '[filter_scheduler] max_io_ops_per_host',
  ),
);

/**
 * Passes hosts with fewer I/O-heavy operations in progress (builds, resizes, snapshots, migrations,
 * rescues, unshelves: Nova's `io_workload` stat) than `[filter_scheduler] max_io_ops_per_host`.
 * Runs for every instance of a multi-create, so each earlier pick on a host counts as one more.
 */
export const IoOpsFilter = defineFilter({
  name: 'IoOpsFilter',
  check: (host, _spec, _state, ctx) =>
    host.num_io_ops < ctx.config.filter_scheduler.max_io_ops_per_host ? PASS : TOO_MANY_IO_OPS,
});

/** The explanation shared with AggregateIoOpsFilter; `origin` says where the limit came from. */
export function tooManyIoOps(host: HostState, max: number, origin: string): string {
  return (
    `host has ${host.num_io_ops} I/O-heavy operations in progress; max_io_ops_per_host is ${max} (${origin}), ` +
    `so it needs fewer than ${max}`
  );
}
