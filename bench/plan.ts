/**
 * The migration planner on generated fleets (lib/sim/fleet.ts) of 100 hosts / 2,000 VMs and
 * 1,000 hosts / 20,000 VMs: detection and planning time (wall clock, plus the CPU time of the
 * planner, since this machine is shared), and the plan's quality under the proportional-share
 * model — suffering VMs left, bytes moved, waves — side by side with the simple strategy "move each
 * victim to the same-AZ host with the most free RAM" (lib/sim/baseline.ts) and with the lower bound.
 * Quality is measured with the default limits and 30-minute plan expiry (both strategies get the
 * same migration budget), without a time budget (a day: the choices alone), and with
 * noisy_neighbour_moves.
 */
import { detect } from '../lib/rebalance/detect.js';
import { type FleetInput, hostObservation } from '../lib/rebalance/fleetInput.js';
import { predictOutcome } from '../lib/rebalance/outcome.js';
import { planRebalance } from '../lib/rebalance/planner.js';
import type { Plan } from '../lib/rebalance/planTypes.js';
import { defaultRebalanceSettings, type RebalanceSettings } from '../lib/rebalance/settings.js';
import type { DetectionReport } from '../lib/rebalance/types.js';
import { simpleStrategy } from '../lib/sim/baseline.js';
import { generateFleet } from '../lib/sim/fleet.js';
import { round, time } from './stats.js';

const SIZES = [
  { hosts: 100, vms: 2_000, runs: 20 },
  { hosts: 1_000, vms: 20_000, runs: 12 },
];
const TARGET_P50_MS = 250;
const GIB = 2 ** 30;
const log = (line: string) => process.stdout.write(`plan: ${line}\n`);

export async function benchPlan(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const size of SIZES) out[`hosts_${size.hosts}`] = await benchSize(size);
  const large = out.hosts_1000 as {
    plan: { p50_ms: number; cpu_p50_ms: number };
    quality: Record<string, Quality>;
  };
  out.targets = {
    plan_p50_ms_at_1000_hosts: large.plan.p50_ms,
    plan_cpu_p50_ms_at_1000_hosts: large.plan.cpu_p50_ms,
    p50_within_250_ms: large.plan.p50_ms <= TARGET_P50_MS,
    no_more_suffering_than_simple: Object.values(large.quality).every(
      (q) => q.planner.suffering_left <= q.simple.suffering_left,
    ),
    bytes_within_2x_lower_bound: Object.values(large.quality).every(
      (q) => q.planner.bytes <= 2 * q.lower_bound_bytes,
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
  };
}

const ms = (us: number) => round(us / 1000);
