/**
 * The detector's Lambda-side work after reading, in memory, with nothing else in the process's
 * way (the dynalite bench now measures the whole run at 10,000 hosts too): the window digests
 * ingest would write (10-host batches, one page per host and minute) are built, then what a
 * planning run does with them is timed phase by phase: merging them into node windows
 * (WindowMerge, the code fleetWindows runs), parsing the instance states a Scan would return,
 * assembling the fleet (fleetOf, readFleet's own), detecting and planning. Each phase reports its
 * CPU, peak heap and RSS, and the heap still live after it.
 */
import { defaultConfig } from '../lib/config/options.js';
import { fleetOf, sampleWindow } from '../lib/detector/fleetRead.js';
import type { InstanceReport } from '../lib/model/reports.js';
import { EMPTY_SERIES } from '../lib/model/sampleSeries.js';
import { detect } from '../lib/rebalance/detect.js';
import { planRebalance } from '../lib/rebalance/planner.js';
import { defaultRebalanceSettings } from '../lib/rebalance/settings.js';
import { type NodeSeries, WindowMerge } from '../lib/store/fleetWindows.js';
import type { StoredHost } from '../lib/store/hostItems.js';
import type { StoredInstance } from '../lib/store/instances.js';
import { messagePages, nodeEntityKey } from '../lib/store/samplePages.js';
import { digestWrites, type WindowDigestItem } from '../lib/store/windowDigest.js';
import { ownCpuMs } from './dynaliteProcess.js';
import { liveHeap } from './gc.js';
import { generateFleet } from './generateFleet.js';
import { mib } from './stats.js';

const BATCH = 10;
/** DynamoDB returns at most 1 MB per Query page. */
const QUERY_PAGE_BYTES = 1024 * 1024;

interface Phase<T> {
  value: T;
  cpu_ms: number;
  peak_heap_mib: number;
  peak_rss_mib: number;
  /** Heap still live after the phase (after a full collection): what the run holds from here on. */
  live_heap_mib: number;
}

/** Runs one phase; memory is the process's peak while it ran (sampled, and after it). */
async function phase<T>(run: () => T | Promise<T>): Promise<Phase<T>> {
  let { heapUsed: heap, rss } = process.memoryUsage();
  const sample = () => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  };
  const sampler = setInterval(sample, 20);
  const cpu0 = ownCpuMs();
  try {
    const value = await run();
    sample();
    const cpu_ms = Math.round(ownCpuMs() - cpu0);
    const live = liveHeap();
    return { value, cpu_ms, peak_heap_mib: mib(heap), peak_rss_mib: mib(rss), live_heap_mib: mib(live) };
  } finally {
    clearInterval(sampler);
  }
}

const NO_WINDOW: NodeSeries = { host: EMPTY_SERIES, instances: new Map() };

export async function benchDetectorOffline(hosts: number, vmsPerHost: number) {
  const fleet = generateFleet({ hosts, vms: hosts * vmsPerHost, zones: 3, seed: 17, contendedShare: 0.1 });
  const settings = { ...defaultRebalanceSettings(), mode: 'recommend' as const };
  const byHost = new Map<string, InstanceReport[]>();
  for (const i of fleet.instances) byHost.set(i.host, [...(byHost.get(i.host) ?? []), i]);
  const items: WindowDigestItem[] = [];
  const minutes = fleet.instances[0]?.samples.length ?? 0;
  for (let m = 0; m < minutes; m++) {
    for (let b = 0; b < fleet.hypervisors.length; b += BATCH) {
      const pages = fleet.hypervisors.slice(b, b + BATCH).flatMap((h) =>
        messagePages(
          [{ ...h, samples: h.samples.slice(m, m + 1) }],
          (byHost.get(h.host) ?? []).map((i) => ({ ...i, samples: i.samples.slice(m, m + 1) })),
          2 * 86_400,
        ),
      );
      for (const d of digestWrites(pages)) items.push(d.item);
    }
  }
  const digestBytes = items.reduce((n, i) => n + i.d.byteLength + i.entity.length + 40, 0);
  // The instance items' `state` attribute, as listInstances parses it; the host items as listHosts returns them.
  const states = fleet.instances.map(({ samples: _s, ...rest }) => JSON.stringify(rest));
  const stored: StoredHost[] = fleet.hypervisors.map((h) => ({
    state: h.state,
    reported_at: h.reported_at,
    version: 1,
    updated_at: 0,
    claims: {},
  }));
  const { from, to } = sampleWindow(fleet.now, settings);
  const generated = { fleet, states, items, stored };
  const baseline = { heapUsed: liveHeap(), rss: process.memoryUsage().rss };
  const merged = await phase(() => {
    const merge = new WindowMerge(from, to, 0);
    for (const item of items)
      merge.add(item as unknown as Record<string, unknown>, item.entity.split('/')[2]);
    return merge.windows();
  });
  const parsed = await phase(() => states.map((s) => JSON.parse(s) as StoredInstance));
  const fleetInput = await phase(() =>
    fleetOf({
      hosts: stored,
      stored: parsed.value,
      windows: stored.map((h) => merged.value.nodes.get(nodeEntityKey(h.state)) ?? NO_WINDOW),
      now: fleet.now,
      defaultZone: defaultConfig().DEFAULT.default_availability_zone,
    }),
  );
  const detection = await phase(() =>
    detect(
      { now: fleet.now, hosts: fleetInput.value.observed.hosts, vms: fleetInput.value.observed.vms },
      settings,
    ),
  );
  const plan = await phase(() =>
    planRebalance({ fleet: fleetInput.value, settings, config: defaultConfig(), detection: detection.value }),
  );
  const strip = <T>({ value: _v, ...rest }: Phase<T>) => rest;
  const cpu = [merged, parsed, fleetInput, detection, plan].reduce((n, p) => n + p.cpu_ms, 0);
  return {
    hosts,
    vms: fleet.instances.length,
    window_digest_items: items.length,
    window_digest_mib: mib(digestBytes),
    window_queries_estimate: 12 * 4 + Math.ceil(digestBytes / QUERY_PAGE_BYTES),
    samples_merged: merged.value.samples,
    heap_before_mib: mib(baseline.heapUsed),
    rss_before_mib: mib(baseline.rss),
    generated_inputs: Object.keys(generated).join(', '),
    merge_digests: strip(merged),
    parse_instance_states: strip(parsed),
    build_fleet_input: strip(fleetInput),
    detect: { suffering: detection.value.suffering.length, ...strip(detection) },
    plan: { migrations: plan.value.migrations.length, ...strip(plan) },
    lambda_cpu_ms_without_io: cpu,
  };
}
