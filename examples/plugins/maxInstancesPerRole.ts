/**
 * An example custom filter, written against Placid's public engine API only. Load it with
 *
 *   [filter_scheduler]
 *   available_filters = nova.scheduler.filters.all_filters
 *   available_filters = ./examples/plugins/maxInstancesPerRole.ts
 *   enabled_filters = ComputeFilter,MaxInstancesPerRoleFilter
 *
 * It spreads the members of one role (say, etcd or a database primary) so that a host runs at
 * most N of them: the request names its role with the scheduler hint `role`; instances on a host
 * carry theirs in `metadata.role`; N is the host's aggregate metadata `max_instances_per_role`
 * (the smallest, when several aggregates set it), else 1.
 */
import {
  aggregateNumber,
  defineFilter,
  type HostState,
  PASS,
  PASS_ALL,
  reject,
  schedulerHint,
} from '../../lib/engine/index.js';

const LIMIT_KEY = 'max_instances_per_role';

const ROLE_FULL = reject<string>(
  (host, _spec, role) =>
    `host already runs ${countRole(host, role)} instance(s) of role ${role} (limit ${limitOf(host)}, aggregate metadata ${LIMIT_KEY})`,
);

export const MaxInstancesPerRoleFilter = defineFilter<string>({
  name: 'MaxInstancesPerRoleFilter',
  prepare: (spec) => {
    const role = schedulerHint(spec, 'role');
    return typeof role === 'string' && role !== '' ? role : PASS_ALL;
  },
  check: (host, _spec, role) => (countRole(host, role) < limitOf(host) ? PASS : ROLE_FULL),
});

function limitOf(host: HostState): number {
  return aggregateNumber(host, LIMIT_KEY, 1, 'int');
}

function countRole(host: HostState, role: string): number {
  let n = 0;
  for (const instance of Object.values(host.instances)) {
    const metadata = instance.metadata as Record<string, unknown> | undefined;
    if (metadata?.role === role) n++;
  }
  return n;
}
