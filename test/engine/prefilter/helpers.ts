import type { SchedulerConfig } from '../../../lib/config/options.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import type { HostState } from '../../../lib/model/hostState.js';
import type { RequestSpec } from '../../../lib/model/requestSpec.js';
import { makeConfig, makeContext, makeHost } from '../../helpers/factories.js';
import { type PrefilterResult, placementPrefilter } from './placementPrefilter.js';

/**
 * A ready compute node with room: 16 vCPUs, 16 GiB RAM (512 MB reserved, so 15872 MB free), 100 GB disk.
 */
export function computeHost(input: Partial<HostStateInput> & { host?: string } = {}): HostState {
  const name = input.host ?? 'host1';
  return makeHost({
    host: name,
    nodename: name,
    vcpus_total: 16,
    vcpus_used: 0,
    total_usable_ram_mb: 16384,
    free_ram_mb: 15872,
    total_usable_disk_gb: 100,
    disk_mb_used: 0,
    free_disk_mb: 100 * 1024,
    ...input,
  });
}

/** Runs the pre-filter with explanations on. */
export function prefilter(
  hosts: HostState[],
  spec: RequestSpec,
  config: SchedulerConfig = makeConfig(),
  record = true,
): PrefilterResult {
  return placementPrefilter(hosts, spec, makeContext(config, hosts), record);
}

export function kept(result: PrefilterResult): string[] {
  return result.hosts.map((h) => h.host);
}

/** host → [stage, reason] of every removal. */
export function removed(result: PrefilterResult): Record<string, [string, string]> {
  return Object.fromEntries(result.removals.map((r) => [r.host.host, [r.stage, r.reason()]]));
}
