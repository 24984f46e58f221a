/**
 * What the collector needs from the outside, as ports: a metrics source (Prometheus) and an
 * inventory source (Nova and Placement). The adapters are prometheusMetrics.ts and novaInventory.ts;
 * tests can plug in anything shaped like these.
 */
import type { QueryResult } from '../drivers/prometheus/response.js';

export type { QueryResult, Series } from '../drivers/prometheus/response.js';

export interface TimeRange {
  start: Date;
  end: Date;
  stepSeconds: number;
}

export interface MetricsSource {
  /** The query's series over the range (an instant query when start equals end). */
  query(promql: string, range: TimeRange): Promise<QueryResult>;
}

export interface InventoryHost {
  /** Compute node UUID (also its Placement resource provider). */
  id: string;
  host: string;
  nodename: string;
  state: string;
  status: string;
  disabledReason: string | null;
  hostIp: string | null;
  hypervisorType: string | null;
  hypervisorVersion: number | null;
  cpuInfo: string | null;
  /** Nova's own usage figures; null from microversion 2.88, which removed them. */
  usage: {
    vcpus: number;
    vcpusUsed: number;
    memoryMb: number;
    memoryMbUsed: number;
    localGb: number;
    localGbUsed: number;
    freeRamMb: number;
    freeDiskGb: number;
    runningVms: number | null;
  } | null;
}

export interface InventoryServer {
  id: string;
  name: string;
  status: string;
  host: string | null;
  nodename: string | null;
  availabilityZone: string | null;
  metadata: Record<string, string>;
  tags: string[];
  addresses: string[];
  bootFromVolume: boolean;
  flavor: { name: string; vcpus: number; ramMb: number; diskGb: number; ephemeralGb: number; swapMb: number };
}

export interface InventoryAggregate {
  uuid: string | null;
  name: string;
  availabilityZone: string | null;
  hosts: string[];
  metadata: Record<string, string>;
}

export interface InventoryServerGroup {
  id: string;
  name: string;
  policy: 'affinity' | 'anti-affinity' | 'soft-affinity' | 'soft-anti-affinity';
  members: string[];
}

export interface ProviderInventory {
  total: number;
  reserved: number;
  allocation_ratio: number;
  min_unit?: number;
  max_unit?: number;
  step_size?: number;
}

/** Placement's view of one compute node. */
export interface PlacementData {
  traits: string[];
  inventories: Record<string, ProviderInventory>;
  /** Placement's usages; sent with the inventories, whose `used` would otherwise read as 0. */
  usages: Record<string, number>;
}

/** What one collector run read from Nova and Placement (not a Placement inventory: see HostState.inventories). */
export interface InventorySnapshot {
  hosts: InventoryHost[];
  servers: InventoryServer[];
  aggregates: InventoryAggregate[];
  /** Null when server groups were not read (turned off). */
  serverGroups: InventoryServerGroup[] | null;
  /** Time of each server's latest completed live migration; null when not read (turned off). */
  lastMigratedAt: Map<string, string> | null;
  /** By compute node UUID; null when Placement was not reachable or turned off. */
  placement: Map<string, PlacementData> | null;
  /** Things that limit what the inventory says, for the run summary. */
  notes: string[];
  /** Problems that make the reports less complete than they should be. */
  problems: string[];
}

export interface InventorySource {
  /** The whole inventory, or a throw when a part the reports cannot do without failed. */
  read(): Promise<InventorySnapshot>;
}
