/**
 * One placement decision over 1k, 10k and 100k in-memory hosts: Placement pre-filter, Nova's default
 * filters plus AvailabilityZoneFilter and AggregateInstanceExtraSpecsFilter, and every weigher.
 * Reports wall-clock and CPU-time percentiles per size, and the CPU time of each stage.
 */
import { resolveConfig } from '../lib/config/load.js';
import type { EngineContext } from '../lib/engine/context.js';
import { runFilters } from '../lib/engine/filterHandler.js';
import { Fleet } from '../lib/engine/fleet.js';
import { HostCheck } from '../lib/engine/prefilter/hostCheck.js';
import { createScheduler } from '../lib/engine/registry.js';
import type { Scheduler } from '../lib/engine/scheduler.js';
import { rankHosts, weighHosts } from '../lib/engine/weighing.js';
import { hostStateInput, toHostState } from '../lib/model/hostSchema.js';
import type { HostState } from '../lib/model/hostState.js';
import { parseRequestSpec } from '../lib/model/requestSchema.js';
import type { RequestSpec } from '../lib/model/requestSpec.js';
import { recordedDecisionJson } from '../lib/schedule/record.js';
import { benchCliStart } from './cliStart.js';
import { median, mib, percentile, round, writeSection } from './stats.js';

const SIZES = [1_000, 10_000, 100_000];

/** A fleet of `n` hosts in 3 AZs, 2 hardware classes (aggregate metadata), varied usage. */
export function generateHosts(n: number): HostState[] {
  return generateHostInputs(n).map((input) => toHostState(hostStateInput.parse(input)));
}

/** The generated hosts as input documents (what the Nova side of bench/novaPlugin.ts builds from). */
export function generateHostInputs(n: number): Record<string, unknown>[] {
  const zones = ['az1', 'az2', 'az3'];
  const hosts: Record<string, unknown>[] = [];
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let i = 0; i < n; i++) {
    const az = zones[i % 3];
    const ssd = i % 2 === 0;
    const ram = 262144;
    const usedRam = Math.floor(rnd() * 200000);
    const vcpus = 64;
    hosts.push({
      host: `cmp-${i}`,
      nodename: `cmp-${i}`,
      free_ram_mb: ram - usedRam - 512,
      total_usable_ram_mb: ram,
      total_usable_disk_gb: 2000,
      free_disk_mb: Math.floor((2000 - rnd() * 1500) * 1024),
      disk_mb_used: 0,
      vcpus_total: vcpus,
      vcpus_used: Math.floor(rnd() * 200),
      cpu_allocation_ratio: 4,
      num_instances: Math.floor(rnd() * 40),
      num_io_ops: Math.floor(rnd() * 6),
      hypervisor_type: 'QEMU',
      hypervisor_version: 8002000,
      supported_instances: [['x86_64', 'kvm', 'hvm']],
      service: { disabled: i % 97 === 0, up: true },
      aggregates: [
        { name: `zone-${az}`, hosts: [], metadata: { availability_zone: az } },
        {
          name: ssd ? 'ssd' : 'hdd',
          hosts: [],
          metadata: { storage: ssd ? 'ssd' : 'hdd', cpu_gen: ssd ? '4' : '3' },
        },
      ],
    });
  }
  return hosts;
}

const FILTERS = [
  'AvailabilityZoneFilter',
  'AggregateInstanceExtraSpecsFilter',
  'ComputeFilter',
  'ComputeCapabilitiesFilter',
  'ImagePropertiesFilter',
  'ServerGroupAntiAffinityFilter',
  'ServerGroupAffinityFilter',
];

/** The bench's scheduler (its filters, every weigher) and request, shared with profilePlacement.ts. */
export function placementSetup(): { scheduler: Scheduler; spec: RequestSpec } {
  const config = resolveConfig(PLACEMENT_CONFIG, 'bench');
  const scheduler = createScheduler(config);
  const spec = parseRequestSpec(PLACEMENT_REQUEST);
  return { scheduler, spec };
}

/** The bench's config document: its filters and every weigher. */
export const PLACEMENT_CONFIG = {
  filter_scheduler: { enabled_filters: FILTERS, weight_classes: ['nova.scheduler.weights.all_weighers'] },
};

/** The bench's request, as plain JSON (REQUEST.json's shape). */
export const PLACEMENT_REQUEST = {
  flavor: {
    name: 'm1.large',
    vcpus: 4,
    memory_mb: 8192,
    root_gb: 40,
    extra_specs: {
      'aggregate_instance_extra_specs:storage': 'ssd',
      'capabilities:hypervisor_type': 'QEMU',
    },
  },
  image: { id: 'img-1', properties: { hw_architecture: 'x86_64' } },
  availability_zone: 'az2',
};

export async function benchPlacement(): Promise<Record<string, unknown>> {
  const cli = await benchCliStart();
  const { scheduler, spec } = placementSetup();
  const out: Record<string, unknown> = {
    note: "CPU time (process.cpuUsage / the children's user+sys) is the figure to read: the machine is shared by other engineers, so wall times move with their load.",
    cli,
  };
  for (const n of SIZES) {
    const fleet = Fleet.from(generateHosts(n));
    const before = process.memoryUsage();
    let peak = before.heapUsed;
    const runs = n >= 100_000 ? 60 : 300;
    const timing = await timeDecisions(
      async () => {
        const d = await scheduler.schedule(fleet, spec);
        if (d.error) throw new Error(`bench request was not placed: ${d.error.message}`);
      },
      runs,
      // Outside the timed window: process.memoryUsage() alone costs about 9 µs of CPU.
      () => {
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      },
    );
    const stages = await stageCpu(scheduler, fleet, spec, runs);
    const explained = n >= 10_000 ? await explainedVsUnexplained(scheduler, fleet, spec, runs) : undefined;
    const other = Math.max(0, timing.cpu_p50_us - Object.values(stages).reduce((a, b) => a + b, 0));
    out[`hosts_${n}`] = {
      ...timing,
      ns_per_host: Math.round((timing.p50_us * 1000) / n),
      cpu_ns_per_host: Math.round((timing.cpu_p50_us * 1000) / n),
      stages_cpu_us: { ...stages, other: round(other) },
      ...(explained ? { explained } : {}),
      heap_used_mib: mib(before.heapUsed),
      peak_heap_mib: mib(peak),
      rss_mib: mib(process.memoryUsage().rss),
    };
    process.stdout.write(
      `placement ${n} hosts: p50 ${timing.p50_us} µs, p99 ${timing.p99_us} µs; ` +
        `CPU p50 ${timing.cpu_p50_us} µs (${JSON.stringify(stages)}, other ${round(other)})` +
        (explained ? `; explained ${JSON.stringify(explained)}` : '') +
        '\n',
    );
  }
  return out;
}

/**
 * Wall-clock and CPU-time percentiles of `fn`. CPU time (process.cpuUsage around each run) is the
 * steadier figure on a shared machine: time spent waiting for a core does not count.
 */
async function timeDecisions(fn: () => Promise<void>, runs: number, after: () => void = () => {}) {
  await warmUp(fn, runs);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    await fn();
    const c = process.cpuUsage(c0);
    wall.push(Number(process.hrtime.bigint() - t0) / 1000);
    cpu.push(c.user + c.system);
    after();
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const mean = (xs: number[]) => round(xs.reduce((s, x) => s + x, 0) / xs.length);
  return {
    runs,
    p50_us: round(percentile(wall, 50)),
    p99_us: round(percentile(wall, 99)),
    mean_us: mean(wall),
    cpu_p50_us: round(percentile(cpu, 50)),
    cpu_p99_us: round(percentile(cpu, 99)),
    cpu_mean_us: mean(cpu),
  };
}

/**
 * Median CPU µs of each stage of one decision, run on its own over the previous stage's output:
 * the Placement pre-filter, the filters, the weighers and the top-k ranking. What the decision's
 * median costs beyond their sum ("other") is the scheduler's glue: copying the request, preparing
 * the plugins' per-request state, picking from the ranking and the alternates.
 */
async function stageCpu(scheduler: Scheduler, fleet: Fleet, spec: RequestSpec, runs: number) {
  const ctx: EngineContext = { config: scheduler.config, now: new Date(), index: 0, fleet };
  const prefiltered = new HostCheck(spec, ctx, fleet).candidates();
  const filtered = (await runFilters(scheduler.filters, prefiltered, spec, ctx)).hosts;
  const weights = weighHosts(scheduler.weighers, filtered, spec, ctx);
  const s = scheduler.config.scheduler;
  // As the scheduler ranks one instance: the random subset, the alternates and 8 spare hosts.
  const limit = scheduler.config.filter_scheduler.host_subset_size + s.max_attempts - 1 + 8;
  return {
    prefilter: await medianCpu(() => new HostCheck(spec, ctx, fleet).candidates(), runs),
    filters: await medianCpu(() => runFilters(scheduler.filters, prefiltered, spec, ctx), runs),
    weighing: await medianCpu(() => weighHosts(scheduler.weighers, filtered, spec, ctx), runs),
    ranking: await medianCpu(() => rankHosts(weights, limit), runs),
  };
}

/**
 * An explained decision against an unexplained one, run alternately in one process (so a busy
 * machine slows both alike): median CPU µs of each and their ratio. `recorded` adds what the
 * schedule stage does with an explained decision (its capped decision JSON: the best 100 weighed
 * hosts and every elimination, cut to 100).
 */
async function explainedVsUnexplained(scheduler: Scheduler, fleet: Fleet, spec: RequestSpec, runs: number) {
  const plain = () => scheduler.schedule(fleet, spec);
  const explained = () => scheduler.schedule(fleet, spec, { explain: true });
  const recorded = async () =>
    recordedDecisionJson(await scheduler.schedule(fleet, spec, { explain: true }), 1);
  await warmUp(async () => {
    await plain();
    await recorded();
  }, runs);
  const cpu: Record<'plain' | 'explained' | 'recorded', number[]> = {
    plain: [],
    explained: [],
    recorded: [],
  };
  for (let i = 0; i < runs; i++) {
    for (const [key, fn] of [
      ['plain', plain],
      ['explained', explained],
      ['recorded', recorded],
    ] as const) {
      const c0 = process.cpuUsage();
      await fn();
      const c = process.cpuUsage(c0);
      cpu[key].push(c.user + c.system);
    }
  }
  const unexplained = median(cpu.plain);
  const explainedCpu = median(cpu.explained);
  const recordedCpu = median(cpu.recorded);
  return {
    unexplained_cpu_p50_us: unexplained,
    explained_cpu_p50_us: explainedCpu,
    ratio: round(explainedCpu / unexplained),
    explained_recorded_cpu_p50_us: recordedCpu,
    recorded_ratio: round(recordedCpu / unexplained),
  };
}

/** Median CPU µs of one call (medians leave out the odd garbage collection, as for the decision). */
async function medianCpu(fn: () => unknown, runs: number): Promise<number> {
  await warmUp(fn, runs);
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    await fn();
    const c = process.cpuUsage(c0);
    cpu.push(c.user + c.system);
  }
  return median(cpu);
}

/**
 * Runs `fn` until the JIT has settled: a fifth of the runs and at least WARM_UP_MS. A count alone
 * is too little at 1k hosts, where 60 runs take a few ms and optimising compilations (on other
 * threads, so counted in CPU time) would still be running during the measured runs.
 */
async function warmUp(fn: () => unknown, runs: number): Promise<void> {
  const until = performance.now() + WARM_UP_MS;
  for (let i = 0; i < Math.ceil(runs / 5) || performance.now() < until; i++) await fn();
}

const WARM_UP_MS = 500;

if (import.meta.url === `file://${process.argv[1]}`) {
  writeSection('placement', await benchPlacement());
}
