/**
 * The migration planner on generated fleets (bench/generateFleet.ts) of 100 hosts / 2,000 VMs and
 * 1,000 hosts / 20,000 VMs: detection and planning time (wall clock, plus the CPU time of the
 * planner, since this machine is shared), and the plan's quality under the proportional-share
 * model — suffering VMs left, bytes moved, waves — side by side with the simple strategy "move each
 * victim to the same-AZ host with the most free RAM" (simpleStrategy.ts) and with the lower bound.
 * Quality is measured with the default limits and 30-minute plan expiry (both strategies get the
 * same migration budget), without a time budget (a day: the choices alone), and with
 * noisy_neighbour_moves. The lower bound covers the suffering VMs of the hosts the plan relieves
 * fully; `bytes_vs_bound` is what the plan moves from those hosts over the bound.
 * `host_metric_variants` (issue 16): the same fleets with their hosts reporting steal four ways
 * (demand-weighted, plain mean over VMs, vCPU-weighted, absent), GB moved against the bound: six
 * noisy-neighbour fleets of 24-48 hosts in 3 zones, and the 1,000-host fleet, without a time budget.
 */

import type { Plan } from '../lib/model/plan.js';
import { detect } from '../lib/rebalance/detect.js';
import { type FleetInput, hostObservation } from '../lib/rebalance/fleetInput.js';
import { predictOutcome } from '../lib/rebalance/outcome.js';
import { planRebalance } from '../lib/rebalance/planner.js';
import { defaultRebalanceSettings, type RebalanceSettings } from '../lib/rebalance/settings.js';
import type { DetectionReport } from '../lib/rebalance/types.js';
import { generateFleet, HOST_STEAL_VARIANTS, type HostStealVariant } from './generateFleet.js';
import { simpleStrategy } from './simpleStrategy.js';
import { round, time } from './stats.js';

const SIZES = [
  { hosts: 100, vms: 2_000, runs: 20 },
  { hosts: 1_000, vms: 20_000, runs: 12 },
];
const TARGET_P50_MS = 150;
const TARGET_BOUND_RATIO = 1.3;
const SMALL_FLEETS = [1, 2, 3, 4, 5, 6].map((seed) => ({
  seed,
  hosts: 20 + seed * 4,
  vms: (20 + seed * 4) * 20,
  zones: 3,
  contendedShare: 0.15,
}));
const GIB = 2 ** 30;
const log = (line: string) => process.stdout.write(`plan: ${line}\n`);

export async function benchPlan(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const size of SIZES) out[`hosts_${size.hosts}`] = await benchSize(size);
  const variants = await benchVariants();
  out.host_metric_variants = variants;
  const large = out.hosts_1000 as {
    plan: { p50_ms: number; cpu_p50_ms: number };
    quality: Record<string, Quality>;
  };
  out.targets = {
    plan_p50_ms_at_1000_hosts: large.plan.p50_ms,
    plan_cpu_p50_ms_at_1000_hosts: large.plan.cpu_p50_ms,
    p50_within_150_ms: large.plan.p50_ms <= TARGET_P50_MS,
    no_more_suffering_than_simple: Object.values(large.quality).every(
      (q) => q.planner.suffering_left <= q.simple.suffering_left,
    ),
    bytes_within_1_3x_lower_bound_every_variant: Object.values(variants).every(
      (v) =>
        v.small_fleets.bytes_vs_bound <= TARGET_BOUND_RATIO &&
        v.hosts_1000.bytes_vs_bound <= TARGET_BOUND_RATIO,
    ),
    no_more_suffering_than_simple_every_variant: Object.values(variants).every(
      (v) =>
        v.small_fleets.suffering_left <= v.small_fleets.simple_suffering_left &&
        v.hosts_1000.suffering_left <= v.hosts_1000.simple_suffering_left,
    ),
  };
  log(`targets ${JSON.stringify(out.targets)}`);
  return out;
}

async function benchSize(size: { hosts: number; vms: number; runs: number }) {
  const fleet = generateFleet({ hosts: size.hosts, vms: size.vms, seed: 11 });
  const settings = defaultRebalanceSettings();
  const detectOnce = () =>
    detect({ now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances }, settings);
  const detection = detectOnce();
  const detectTiming = await time(detectOnce, 5, 1);
  const cpu: number[] = [];
  const planTiming = await time(
    async () => {
      const start = process.cpuUsage();
      await planRebalance({ fleet, settings, detection });
      const used = process.cpuUsage(start);
      cpu.push((used.user + used.system) / 1000);
    },
    size.runs,
    2,
  );
  const cpuSorted = cpu.slice(2).sort((a, b) => a - b);
  const result = {
    hosts: size.hosts,
    vms: size.vms,
    suffering_vms: detection.suffering.length,
    contended_hosts: detection.hosts.filter((h) => h.status === 'contended').length,
    detect: { runs: detectTiming.runs, p50_ms: ms(detectTiming.p50_us), p99_ms: ms(detectTiming.p99_us) },
    plan: {
      runs: planTiming.runs,
      p50_ms: ms(planTiming.p50_us),
      p99_ms: ms(planTiming.p99_us),
      cpu_p50_ms: round(cpuSorted[Math.floor(cpuSorted.length / 2)] ?? 0),
    },
    quality: {
      default_limits: await quality(fleet, detection, settings),
      no_time_budget: await quality(fleet, detection, { ...settings, plan_ttl_minutes: 1440 }),
      noisy_neighbour_moves: await quality(fleet, detection, { ...settings, noisy_neighbour_moves: true }),
    },
  };
  log(`${size.hosts} hosts / ${size.vms} VMs: ${JSON.stringify(result)}`);
  return result;
}

interface Quality {
  planner: {
    suffering_left: number;
    newly_suffering: number;
    moved: number;
    bytes_gib: number;
    bytes: number;
    waves: number;
  };
  simple: {
    suffering_left: number;
    newly_suffering: number;
    moved: number;
    bytes_gib: number;
    waves: number;
  };
  lower_bound_bytes: number;
  lower_bound_gib: number;
  /** Suffering VMs (and hosts) the bound covers: those of the hosts the plan relieves fully. */
  bound_covers: { hosts: number; suffering_vms: number; plan_gib: number };
  bytes_vs_bound: number;
}

async function quality(
  fleet: FleetInput,
  detection: DetectionReport,
  settings: RebalanceSettings,
): Promise<Quality> {
  const plan: Plan = await planRebalance({ fleet, settings, detection });
  const simple = simpleStrategy(fleet, detection, settings);
  const vcpus = new Map(fleet.instances.map((i) => [i.uuid, i.flavor.vcpus]));
  const simpleOutcome = predictOutcome(detection, simple.moves, (u) => vcpus.get(u), settings);
  const simpleBytes = simple.moves.reduce((n, m) => n + m.bytes, 0);
  return {
    planner: {
      suffering_left: plan.summary.suffering_left_predicted,
      newly_suffering: plan.summary.newly_suffering_predicted,
      moved: plan.summary.moved,
      bytes_gib: round(plan.summary.bytes / GIB),
      bytes: plan.summary.bytes,
      waves: plan.summary.waves,
    },
    simple: {
      suffering_left: simpleOutcome.sufferingLeft.length,
      newly_suffering: simpleOutcome.newlySuffering.length,
      moved: simple.moves.length,
      bytes_gib: round(simpleBytes / GIB),
      waves: simple.waves,
    },
    lower_bound_bytes: plan.summary.lower_bound_bytes,
    lower_bound_gib: round(plan.summary.lower_bound_bytes / GIB),
    bound_covers: {
      hosts: plan.summary.lower_bound_covers.hosts.length,
      suffering_vms: plan.summary.lower_bound_covers.suffering_vms,
      plan_gib: round(plan.summary.lower_bound_covers.plan_bytes / GIB),
    },
    bytes_vs_bound: ratio(plan.summary.lower_bound_covers.plan_bytes, plan.summary.lower_bound_bytes),
  };
}

interface VariantTotals {
  fleets: number;
  suffering_vms: number;
  moved: number;
  gib: number;
  covered_suffering_vms: number;
  covered_plan_gib: number;
  lower_bound_gib: number;
  bytes_vs_bound: number;
  suffering_left: number;
  simple_suffering_left: number;
}

/** GB moved against the lower bound, per way hosts report steal (no time budget: the choices alone). */
async function benchVariants(): Promise<
  Record<HostStealVariant, { small_fleets: VariantTotals; hosts_1000: VariantTotals }>
> {
  const settings = { ...defaultRebalanceSettings(), plan_ttl_minutes: 1440 };
  const out = {} as Record<HostStealVariant, { small_fleets: VariantTotals; hosts_1000: VariantTotals }>;
  for (const variant of HOST_STEAL_VARIANTS) {
    const small = await totals(
      SMALL_FLEETS.map((shape) => ({ ...shape, hostSteal: variant })),
      settings,
    );
    const large = await totals([{ hosts: 1_000, vms: 20_000, seed: 11, hostSteal: variant }], settings);
    out[variant] = { small_fleets: small, hosts_1000: large };
    log(`host steal ${variant}: ${JSON.stringify(out[variant])}`);
  }
  return out;
}

async function totals(
  shapes: Parameters<typeof generateFleet>[0][],
  settings: RebalanceSettings,
): Promise<VariantTotals> {
  const t = {
    suffering: 0,
    moved: 0,
    bytes: 0,
    covered: 0,
    coveredBytes: 0,
    bound: 0,
    left: 0,
    simpleLeft: 0,
  };
  for (const shape of shapes) {
    const fleet = generateFleet(shape);
    const detection = detect(
      { now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances },
      settings,
    );
    const plan = await planRebalance({ fleet, settings, detection });
    const simple = simpleStrategy(fleet, detection, settings);
    const vcpus = new Map(fleet.instances.map((i) => [i.uuid, i.flavor.vcpus]));
    const s = plan.summary;
    t.suffering += s.suffering_vms;
    t.moved += s.moved;
    t.bytes += s.bytes;
    t.covered += s.lower_bound_covers.suffering_vms;
    t.coveredBytes += s.lower_bound_covers.plan_bytes;
    t.bound += s.lower_bound_bytes;
    t.left += s.suffering_left_predicted;
    t.simpleLeft += predictOutcome(
      detection,
      simple.moves,
      (u) => vcpus.get(u),
      settings,
    ).sufferingLeft.length;
  }
  return {
    fleets: shapes.length,
    suffering_vms: t.suffering,
    moved: t.moved,
    gib: round(t.bytes / GIB),
    covered_suffering_vms: t.covered,
    covered_plan_gib: round(t.coveredBytes / GIB),
    lower_bound_gib: round(t.bound / GIB),
    bytes_vs_bound: ratio(t.coveredBytes, t.bound),
    suffering_left: t.left,
    simple_suffering_left: t.simpleLeft,
  };
}

/** Plan bytes over the bound, 1 when both are 0. */
function ratio(bytes: number, bound: number): number {
  if (bound <= 0) return bytes <= 0 ? 1 : Number.POSITIVE_INFINITY;
  return round(bytes / bound, 3);
}

const ms = (us: number) => round(us / 1000);
