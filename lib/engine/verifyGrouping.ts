import { defaultConfig, type SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import { parseRequestSpec } from '../model/requestSchema.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';
import { PluginError } from './errors.js';
import { type HostFilter, PASS, PASS_ALL } from './filter.js';
import { Fleet } from './fleet.js';
import { buildGroups } from './hostGroups.js';

export interface GroupingCheck {
  /** The request to prepare the filter for (a one-vCPU flavor when omitted). */
  spec?: RequestSpec;
  config?: SchedulerConfig;
  now?: Date;
}

/**
 * For tests of a filter that declares `groupedBy`: asks `check` of every host and throws a
 * PluginError naming two hosts of one group that get different verdicts, which means the grouping
 * misses a host field `check` reads (the engine asks only one host per group, so such a
 * filter would pass or fail hosts it should not). Passes when the filter passes every host
 * (PASS_ALL) or declares no grouping for the request.
 *
 * @example
 * await verifyGrouping(RackFilter, hosts, { spec: parseRequestSpec(requestJson) });
 */
export async function verifyGrouping<S>(
  filter: HostFilter<S>,
  hosts: readonly HostState[],
  check: GroupingCheck = {},
): Promise<void> {
  const spec =
    check.spec ?? parseRequestSpec({ flavor: { name: 'verify', vcpus: 1, memory_mb: 512, root_gb: 1 } });
  const fleet = Fleet.from(hosts);
  const ctx: EngineContext = {
    config: check.config ?? defaultConfig(),
    now: check.now ?? new Date(),
    index: 0,
    fleet,
  };
  const state = filter.prepare ? await filter.prepare(spec, ctx) : (undefined as S);
  if (state === PASS_ALL) return;
  const grouping = filter.groupedBy?.(state as S) ?? null;
  if (grouping === null) return;
  const { groupOf, first } = buildGroups(fleet.hosts, grouping);
  const verdicts = new Map<number, boolean>();
  fleet.hosts.forEach((host, i) => {
    const g = groupOf[i];
    const passes = filter.check(host, spec, state as S, ctx) === PASS;
    const seen = verdicts.get(g);
    if (seen === undefined) verdicts.set(g, passes);
    else if (seen !== passes) {
      const other = fleet.hosts[first[g]];
      throw new PluginError(
        filter.name,
        `groupedBy '${grouping.id}' puts ${other.host}/${other.nodename} and ${host.host}/${host.nodename} in one group, ` +
          `but check ${seen ? 'passes' : 'fails'} the first and ${passes ? 'passes' : 'fails'} the second: ` +
          'the grouping misses a host field check reads',
      );
    }
  });
}
