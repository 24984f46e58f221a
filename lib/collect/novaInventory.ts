/**
 * The inventory port over Nova and Placement. Nova's core lists are all or nothing (see
 * InventoryUnavailableError); Placement is best effort: when the catalog has none, or a call fails,
 * the hosts go out without traits and ratios, and the summary says so.
 */
import { EndpointNotFoundError, OpenStackNotFoundError } from '../drivers/openstack/errors.js';
import type { NovaInventoryClient } from '../drivers/openstack/inventory.js';
import type { PlacementClient } from '../drivers/openstack/placement.js';
import type { NovaMigrationRecord } from '../drivers/openstack/schemas.js';
import { type Clock, systemClock } from '../model/clock.js';
import { mapLimit } from '../store/concurrency.js';
import type { CollectConfig } from './config.js';
import { InventoryUnavailableError } from './errors.js';
import type { InventoryHost, InventorySnapshot, InventorySource, PlacementData } from './ports.js';

export type NovaInventoryApi = Pick<
  NovaInventoryClient,
  | 'listHypervisors'
  | 'listServers'
  | 'listAggregates'
  | 'listServerGroups'
  | 'listLiveMigrationsSince'
  | 'hypervisorsReportUsage'
  | 'microversion'
>;
export type PlacementApi = Pick<PlacementClient, 'probe' | 'inventories' | 'usages' | 'traits'>;

export class NovaInventory implements InventorySource {
  constructor(
    private readonly nova: NovaInventoryApi,
    private readonly placement: PlacementApi | null,
    private readonly config: CollectConfig,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  async read(): Promise<InventorySnapshot> {
    const os = this.config.openstack;
    const history = os.migration_history;
    const [hosts, servers, aggregates, serverGroups, migrations] = await Promise.all([
      required('hypervisors (os-hypervisors/detail)', () => this.nova.listHypervisors()),
      required('servers (servers/detail?all_tenants=1)', () => this.nova.listServers()),
      required('host aggregates (os-aggregates)', () => this.nova.listAggregates()),
      os.server_groups
        ? required('server groups (os-server-groups?all_projects=true)', () => this.nova.listServerGroups())
        : null,
      history === null
        ? null
        : required('live migrations (os-migrations)', () =>
            this.nova.listLiveMigrationsSince(new Date(this.clock.now() - history)),
          ),
    ]);
    const notes: string[] = [];
    const problems: string[] = [];
    if (!os.server_groups) notes.push('server groups not read (openstack.server_groups is off)');
    const placement = await this.readPlacement(hosts, notes, problems);
    if (!this.nova.hypervisorsReportUsage && placement === null) {
      problems.push(
        `compute microversion ${this.nova.microversion} has no usage in os-hypervisors and Placement is not available: host capacity is unknown (sent as 0)`,
      );
    }
    return {
      hosts,
      servers,
      aggregates,
      serverGroups,
      lastMigratedAt: migrations ? lastCompleted(migrations) : null,
      placement,
      notes,
      problems,
    };
  }

  private async readPlacement(
    hosts: readonly InventoryHost[],
    notes: string[],
    problems: string[],
  ): Promise<Map<string, PlacementData> | null> {
    if (!this.placement || !this.config.openstack.placement) {
      notes.push('Placement not read (openstack.placement is off): no traits or allocation ratios');
      return null;
    }
    const placement = this.placement;
    try {
      await placement.probe();
    } catch (error) {
      if (!(error instanceof EndpointNotFoundError)) throw error;
      notes.push(`Placement not reachable (${error.message}): no traits or allocation ratios`);
      return null;
    }
    const byNode = new Map<string, PlacementData>();
    await mapLimit(hosts, this.config.openstack.concurrency, async (host) => {
      try {
        const [inventories, usages, traits] = await Promise.all([
          placement.inventories(host.id),
          placement.usages(host.id),
          placement.traits(host.id),
        ]);
        byNode.set(host.id, { inventories, usages, traits });
      } catch (error) {
        const what = error instanceof OpenStackNotFoundError ? 'has no resource provider' : 'failed';
        problems.push(`Placement ${what} for ${host.nodename}: ${(error as Error).message}`);
      }
    });
    return byNode;
  }
}

async function required<T>(part: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new InventoryUnavailableError(part, error);
  }
}

/** Each server's latest completed live migration (Nova's times have no zone: they are UTC). */
function lastCompleted(records: readonly NovaMigrationRecord[]): Map<string, string> {
  const latest = new Map<string, string>();
  for (const m of records) {
    if (m.status !== 'completed') continue;
    const raw = m.updatedAt ?? m.createdAt;
    if (!raw) continue;
    const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`);
    if (Number.isNaN(ms)) continue;
    const iso = new Date(ms).toISOString();
    const seen = latest.get(m.instanceUuid);
    if (seen === undefined || iso > seen) latest.set(m.instanceUuid, iso);
  }
  return latest;
}
