/**
 * CPU steal of a host for the fleet view: "now" is its latest sample, "window" the mean of its
 * samples in the last N minutes. A host that reports no samples of its own is judged by its VMs
 * (their latest samples, and all their samples in the window), as the report schema allows.
 * A node's pages hold its VMs' samples too, so this is one Query per node, plus one more over the
 * hour before the window when "now" has to come from an earlier sample.
 */
import type { FleetStore } from '../store/fleetStore.js';
import type { NodeWindow } from '../store/samples.js';

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

/** How far before the window "now" may come from; an older sample is no reading of now. */
export const LATEST_LOOKBACK_MS = 60 * 60_000;

const mean = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length;

/** Steal of one host, falling back to the samples of its VMs (`vmUuids`) taken on it. */
export async function readHostSteal(
  store: Pick<FleetStore, 'nodeWindow'>,
  host: { host: string; nodename: string },
  vmUuids: readonly string[],
  window: StealWindow,
): Promise<StealReading> {
  const current = await store.nodeWindow(host.host, host.nodename, window.from, window.to);
  let before: NodeWindow | undefined;
  // The latest samples before the window, read at most once and only when needed.
  const earlier = async () => {
    const end = window.from.getTime() - 1;
    before ??= await store.nodeWindow(
      host.host,
      host.nodename,
      new Date(end - LATEST_LOOKBACK_MS),
      new Date(end),
    );
    return before;
  };
  const own = current.host.at(-1) ?? (await earlier()).host.at(-1);
  if (own || vmUuids.length === 0) return reading(own ? [own] : [], current.host, own ? 'host' : null);
  const latest: Sample[] = [];
  const inWindow: Sample[] = [];
  for (const uuid of vmUuids) {
    const samples = current.instances.get(uuid) ?? [];
    inWindow.push(...samples);
    const last = samples.at(-1) ?? (await earlier()).instances.get(uuid)?.at(-1);
    if (last) latest.push(last);
  }
  return reading(latest, inWindow, latest.length > 0 ? 'vms' : null);
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
