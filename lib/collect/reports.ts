/**
 * The reports of one run: a hypervisor report per compute node Nova listed, an instance report per
 * server placed on one of them, each with its samples and gaps, packed into messages. Servers not
 * on a listed node are counted, not reported (the ingest stage would reject them).
 */

import { cellResolver } from './cells.js';
import type { CollectConfig } from './config.js';
import { availabilityZoneOf, hostReport } from './hostReport.js';
import { instanceReport } from './instanceReport.js';
import { clusterResolver } from './kubernetesCluster.js';
import { type NodeGroup, packMessages } from './messages.js';
import type { MetricTable } from './metricTable.js';
import type { InventoryServer, InventoryServerGroup, InventorySnapshot } from './ports.js';
import { type GapReason, hostSamples, type VmDemand, vmSamples } from './samples.js';
import type { RunSummary } from './summary.js';
import type { SampleWindow } from './window.js';

export interface ReportInputs {
  inventory: InventorySnapshot;
  table: MetricTable;
  window: SampleWindow;
  config: CollectConfig;
  reportedAt: string;
}

export type Counts = Pick<
  RunSummary,
  | 'hosts'
  | 'vms'
  | 'samples'
  | 'gaps'
  | 'vms_without_series'
  | 'hosts_without_series'
  | 'skipped_servers'
  | 'usage_sources'
>;

/** What a run counts, before it has counted anything. */
export function noCounts(): Counts {
  return {
    hosts: 0,
    vms: 0,
    samples: { hosts: 0, vms: 0 },
    gaps: { source_error: 0, counter_reset: 0, invalid_value: 0, no_data: 0 },
    vms_without_series: [],
    hosts_without_series: [],
    skipped_servers: { without_host: 0, on_unknown_node: 0 },
    usage_sources: {},
  };
}

type PlacedServer = InventoryServer & { host: string; nodename: string };

export function buildReports(inputs: ReportInputs): {
  messages: string[];
  counts: Counts;
  /** What makes the run's reports doubtful (aggregates naming two Kubernetes clusters for a host). */
  problems: string[];
} {
  const { inventory, table, window, config, reportedAt } = inputs;
  const counts = noCounts();
  const countGaps = (gaps: readonly { reason: GapReason }[]) => {
    for (const reason of new Set(gaps.map((g) => g.reason))) counts.gaps[reason] += 1;
  };
  const serversByNode = placeServers(inventory, counts);
  const groupOf = new Map<string, InventoryServerGroup>();
  for (const g of inventory.serverGroups ?? []) for (const member of g.members) groupOf.set(member, g);
  const clusters = clusterResolver(inventory.aggregates, {
    serverKey: config.inventory.trust_server_metadata
      ? config.inventory.kubernetes_cluster_metadata_key
      : null,
    aggregateKey: config.inventory.kubernetes_cluster_aggregate_key,
  });
  const cells = cellResolver(config.inventory.cells);
  const groups: NodeGroup[] = [];
  for (const node of inventory.hosts) {
    const servers = serversByNode.get(nodeKey(node)) ?? [];
    const zone = availabilityZoneOf(
      node.host,
      inventory.aggregates,
      config.openstack.default_availability_zone,
    );
    const demand = new Map<number, VmDemand[]>();
    const instances = servers.map((server) => {
      const set = vmSamples(table, server.id, server.flavor.vcpus, window.grid);
      for (const [t, d] of set.demand) demand.set(t, [...(demand.get(t) ?? []), d]);
      if (!table.hasSeries(server.id)) counts.vms_without_series.push(`${server.name} (${server.id})`);
      counts.samples.vms += set.samples.length;
      countGaps(set.gaps);
      return instanceReport({
        server,
        hostZone: zone,
        kubernetesCluster: clusters.clusterOf(server, server.host),
        group: groupOf.get(server.id),
        lastMigratedAt: inventory.lastMigratedAt?.get(server.id) ?? null,
        reportedAt,
        samples: set.samples,
        gaps: set.gaps,
        config,
      });
    });
    const own = hostSamples(
      table,
      node.id,
      window.grid,
      (t) => demand.get(t) ?? [],
      config.collect.host_steal_fallback === 'vms',
    );
    if (!table.hasSeries(node.id)) counts.hosts_without_series.push(node.nodename);
    counts.samples.hosts += own.samples.length;
    countGaps(own.gaps);
    const { report, usage } = hostReport({
      node,
      servers,
      aggregates: inventory.aggregates,
      placement: inventory.placement?.get(node.id),
      reportedAt,
      samples: own.samples,
      gaps: own.gaps,
      config,
    });
    counts.usage_sources[usage] = (counts.usage_sources[usage] ?? 0) + 1;
    const cell = cells.cellOf(node.host);
    groups.push({ host: cell ? { ...report, cell_uuid: cell } : report, instances });
  }
  counts.hosts = groups.length;
  counts.vms = groups.reduce((n, g) => n + g.instances.length, 0);
  const cellProblems = cells.problems([...new Set(inventory.hosts.map((h) => h.host))]);
  return { messages: packMessages(groups), counts, problems: [...clusters.conflicts, ...cellProblems] };
}

function placeServers(inventory: InventorySnapshot, counts: Counts): Map<string, PlacedServer[]> {
  const nodes = new Set(inventory.hosts.map(nodeKey));
  const byNode = new Map<string, PlacedServer[]>();
  for (const s of inventory.servers) {
    if (!s.host || !s.nodename) {
      counts.skipped_servers.without_host += 1;
      continue;
    }
    const key = nodeKey({ host: s.host, nodename: s.nodename });
    if (!nodes.has(key)) {
      counts.skipped_servers.on_unknown_node += 1;
      continue;
    }
    const list = byNode.get(key);
    const placed = s as PlacedServer;
    if (list) list.push(placed);
    else byNode.set(key, [placed]);
  }
  return byNode;
}

function nodeKey(n: { host: string; nodename: string }): string {
  return `${n.host}\u0000${n.nodename}`;
}
