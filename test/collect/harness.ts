/** The collector wired to the fake cloud, with canned Prometheus answers and retries that never wait. */
import {
  type CollectConfig,
  type CollectConfigInput,
  collectConfigSchema,
  queryText,
} from '../../lib/collect/config.js';
import { NovaInventory } from '../../lib/collect/novaInventory.js';
import type { MetricsSource, Series } from '../../lib/collect/ports.js';
import { QUERY_NAMES, type QueryName } from '../../lib/collect/queries.js';
import { collectOnce } from '../../lib/collect/run.js';
import { NovaInventoryClient } from '../../lib/drivers/openstack/inventory.js';
import { KeystoneSession } from '../../lib/drivers/openstack/keystone.js';
import { PlacementClient } from '../../lib/drivers/openstack/placement.js';
import { ManualClock } from '../../lib/model/clock.js';
import type { FakeOpenStack } from '../fakes/openstack/server.js';

export const NOW = new Date('2026-12-01T12:00:30Z');
/** The steps of the default window (5 min of 60 s steps) ending at NOW. */
export const GRID = [4, 3, 2, 1, 0].map((k) => Date.UTC(2026, 11, 1, 12) - k * 60_000);

export function configOf(input: Partial<CollectConfigInput> = {}): CollectConfig {
  return collectConfigSchema.parse({ prometheus: { url: 'http://prometheus.invalid' }, ...input });
}

export interface Canned {
  series?: Partial<Record<QueryName, Series[]>>;
  failing?: QueryName[];
  warnings?: string[];
}

/** Answers each configured query with its canned series (none when not given). */
export function cannedMetrics(config: CollectConfig, canned: Canned): MetricsSource & { calls: string[] } {
  const byText = new Map<string, QueryName>();
  for (const name of QUERY_NAMES) {
    const text = queryText(config, name);
    if (text !== undefined && !byText.has(text)) byText.set(text, name);
  }
  const calls: string[] = [];
  return {
    calls,
    async query(text) {
      calls.push(text);
      const name = byText.get(text);
      if (name && canned.failing?.includes(name)) throw new Error(`prometheus ${name} failed with 503`);
      return { series: (name && canned.series?.[name]) || [], warnings: canned.warnings ?? [] };
    },
  };
}

/** A series at every step of GRID. */
export function flat(labels: Record<string, string>, value: number): Series {
  return { labels, points: GRID.map((t) => ({ t, v: value })) };
}

export function novaInventory(cloud: FakeOpenStack, config: CollectConfig): NovaInventory {
  const session = new KeystoneSession(cloud.credentials(), { clock: { now: () => NOW.getTime() } });
  const retry = { sleep: async () => {}, random: () => 0 };
  const os = config.openstack;
  const nova = new NovaInventoryClient(session, {
    microversion: os.microversion,
    pageSize: os.page_size,
    retry,
  });
  return new NovaInventory(nova, new PlacementClient(session, { retry }), config, new ManualClock(NOW));
}

export async function collectFrom(cloud: FakeOpenStack, config: CollectConfig, canned: Canned = {}) {
  return collectOnce({
    config,
    metrics: cannedMetrics(config, canned),
    inventory: novaInventory(cloud, config),
    clock: new ManualClock(NOW),
  });
}
