/**
 * Cleanup that needs nothing but the agent: what Placid drained carries its mark (the node's
 * placid.io annotations, the Consul maintenance reason) naming the migration and the time. A mark
 * older than the local cap (default 2 h, longer than any migration may take) whose migration this
 * agent is not running is a leftover of a migration that finished, rolled back or was lost, and is
 * undone. The agent does it at start and on an interval; `placid cleanup` on demand.
 */
import type { MaintenanceSwitch } from '../drivers/consul/types.js';
import type { NodeDrainer } from '../drivers/kubernetes/types.js';
import { annotationMark, type PlacidMark, reasonMark } from '../workflow/reasons.js';

export interface Leftover {
  kind: 'kubernetes' | 'consul';
  /** The cluster (null: the default one), or the Consul agent's address. */
  where: string | null;
  node: string;
  migrationId: string;
  since: string | null;
  /** Past the cap and not running here: cleanup undoes it. */
  stale: boolean;
}

export interface LeftoverDrivers {
  drainer(cluster?: string | null): Promise<NodeDrainer>;
  maintenance(): Promise<MaintenanceSwitch>;
}

export interface LeftoverScope {
  clusters: Array<string | null>;
  consulAgents: string[];
  now: number;
  maxDrainedMs: number;
  /** Migrations this agent is running now: never undone under them. */
  running?: ReadonlySet<string>;
}

export async function findLeftovers(drivers: LeftoverDrivers, scope: LeftoverScope): Promise<Leftover[]> {
  const found: Leftover[] = [];
  const add = (kind: Leftover['kind'], where: string | null, node: string, mark: PlacidMark) => {
    const old = mark.since === null || scope.now - mark.since.getTime() > scope.maxDrainedMs;
    found.push({
      kind,
      where,
      node,
      migrationId: mark.migrationId,
      since: mark.since?.toISOString() ?? null,
      stale: old && !scope.running?.has(mark.migrationId),
    });
  };
  for (const cluster of scope.clusters) {
    const drainer = await drivers.drainer(cluster);
    for (const node of (await drainer.nodes?.()) ?? []) {
      const mark = annotationMark(node.metadata?.annotations);
      if (mark) add('kubernetes', cluster, String(node.metadata?.name), mark);
    }
  }
  if (scope.consulAgents.length > 0) {
    const consul = await drivers.maintenance();
    for (const address of scope.consulAgents) {
      const node = (await consul.agentSelf?.(address))?.node ?? '';
      const mark = reasonMark((await consul.status({ node, address })).reason);
      if (mark) add('consul', address, node, mark);
    }
  }
  return found;
}

/** Undoes each stale leftover; one failure does not stop the others. */
export async function undoLeftovers(
  drivers: LeftoverDrivers,
  leftovers: readonly Leftover[],
): Promise<Array<Leftover & { outcome: string }>> {
  const done: Array<Leftover & { outcome: string }> = [];
  for (const leftover of leftovers.filter((l) => l.stale)) {
    try {
      const outcome =
        leftover.kind === 'kubernetes'
          ? await (await drivers.drainer(leftover.where)).uncordon(leftover.node)
          : await (await drivers.maintenance()).disable({
              node: leftover.node,
              address: String(leftover.where),
            });
      done.push({ ...leftover, outcome });
    } catch (error) {
      done.push({ ...leftover, outcome: `failed: ${(error as Error).message}` });
    }
  }
  return done;
}

/** The cluster names a Kubernetes secret holds (null: its single, default connection). */
export function clusterNames(secret: Readonly<Record<string, unknown>>): Array<string | null> {
  const clusters = secret.clusters;
  return clusters && typeof clusters === 'object' ? Object.keys(clusters) : [null];
}
