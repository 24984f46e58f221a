/**
 * CPU steal of a host for the fleet view: "now" is its latest sample, "window" the mean of its
 * samples in the last N minutes. A host that reports no samples of its own is judged by its VMs
 * (their latest samples, and all their samples in the window), as the report schema allows.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mapLimit } from '../store/concurrency.js';
import { epochSeconds } from '../store/context.js';
import type { FleetStore } from '../store/fleetStore.js';
import { entityKey, type SampleEntity } from '../store/samples.js';

export interface StealReading {
  /** Percent; null when there is no sample at all. */
  now: number | null;
  /** Time of the latest sample used for `now` (the oldest one, when averaged over VMs). */
  now_at: string | null;
  /** Mean over the window; null when the window holds no sample. */
  window_mean: number | null;
  window_samples: number;
  /** Whose samples these are: the host's own, or its VMs' when the host sends none. */
  source: 'host' | 'vms' | null;
}

interface Sample {
  ts: string;
  steal_percent: number;
}

export interface StealWindow {
  from: Date;
  to: Date;
}

const mean = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length;

/** Steal of one host, falling back to its VMs' samples. */
export async function hostSteal(
  store: FleetStore,
  host: { host: string; nodename: string },
  vmUuids: readonly string[],
  window: StealWindow,
): Promise<StealReading> {
  const own = await entitySteal(store, { kind: 'host', ...host }, window);
  if (own.latest || vmUuids.length === 0) {
    return reading(own.latest ? [own.latest] : [], own.inWindow, own.latest ? 'host' : null);
  }
  const vms = await mapLimit(vmUuids, 8, (uuid) => entitySteal(store, { kind: 'instance', uuid }, window));
  const latest = vms.flatMap((v) => (v.latest ? [v.latest] : []));
  return reading(
    latest,
    vms.flatMap((v) => v.inWindow),
    latest.length > 0 ? 'vms' : null,
  );
}

function reading(latest: Sample[], inWindow: Sample[], source: StealReading['source']): StealReading {
  const oldest = latest.map((s) => s.ts).sort()[0] ?? null;
  return {
    now: mean(latest.map((s) => s.steal_percent)),
    now_at: oldest,
    window_mean: mean(inWindow.map((s) => s.steal_percent)),
    window_samples: inWindow.length,
    source,
  };
}

/** The entity's samples in the window, and its latest sample at or before the window's end. */
async function entitySteal(
  store: FleetStore,
  entity: SampleEntity,
  window: StealWindow,
): Promise<{ latest?: Sample; inWindow: Sample[] }> {
  const inWindow = (await store.samplesFor(entity, window.from, window.to)) as Sample[];
  if (inWindow.length > 0) return { latest: inWindow[inWindow.length - 1], inWindow };
  return { latest: await latestSample(store, entity, window.to), inWindow };
}

/** One Query, newest first. Expiry follows ts, so if the newest sample has expired, all have. */
async function latestSample(store: FleetStore, entity: SampleEntity, at: Date): Promise<Sample | undefined> {
  const { ctx } = store;
  const { Items } = await ctx.doc.send(
    new QueryCommand({
      TableName: ctx.tables.samples,
      KeyConditionExpression: '#entity = :entity AND #ts <= :at',
      FilterExpression: '#expires_at > :now',
      ExpressionAttributeNames: { '#entity': 'entity', '#ts': 'ts', '#expires_at': 'expires_at' },
      ExpressionAttributeValues: {
        ':entity': entityKey(entity),
        ':at': at.toISOString(),
        ':now': epochSeconds(ctx.clock().getTime()),
      },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  return Items?.[0] as Sample | undefined;
}
