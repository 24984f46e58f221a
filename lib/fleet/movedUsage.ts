/**
 * A host's report counts the VMs it ran when it reported. A migration completed since then (the
 * workflow moves the VM's stored report, markMigrated.ts) is not in that count yet: this is what
 * the moves since the host's report add to (moved in) or take from (moved out) its usage, so
 * `placid fleet` follows completed migrations until the next report says the same.
 */
import type { HostState } from '../model/hostState.js';

export interface MovedInstance {
  uuid: string;
  host: string;
  nodename: string;
  last_migrated_at?: string | null;
  shared_storage?: boolean;
  flavor: { vcpus: number; memory_mb: number; root_gb: number; ephemeral_gb: number };
}

export interface UsageDelta {
  vcpus: number;
  memory_mb: number;
  disk_gb: number;
}

/** `instances`: the stored instances by uuid. */
export function movedUsage(
  state: HostState,
  reportedAt: string,
  instances: ReadonlyMap<string, MovedInstance>,
  here: readonly string[],
): UsageDelta {
  const delta = { vcpus: 0, memory_mb: 0, disk_gb: 0 };
  const reported = Date.parse(reportedAt);
  const movedSince = (i: MovedInstance | undefined): i is MovedInstance =>
    !!i?.last_migrated_at && Date.parse(i.last_migrated_at) > reported;
  const add = (i: MovedInstance, sign: 1 | -1) => {
    delta.vcpus += sign * i.flavor.vcpus;
    delta.memory_mb += sign * i.flavor.memory_mb;
    if (!i.shared_storage) delta.disk_gb += sign * (i.flavor.root_gb + i.flavor.ephemeral_gb);
  };
  const onNode = (i: MovedInstance) => i.host === state.host && i.nodename === state.nodename;
  for (const uuid of here) {
    const i = instances.get(uuid);
    if (movedSince(i) && !(uuid in state.instances)) add(i, 1);
  }
  for (const uuid of Object.keys(state.instances)) {
    const i = instances.get(uuid);
    if (movedSince(i) && !onNode(i)) add(i, -1);
  }
  return delta;
}
