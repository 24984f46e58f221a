/**
 * A day of a 60-host, 3-zone fleet in Asia/Tokyo, shaped like `npm start` output: load peaks at
 * 09:00, 12:00 and 20:00 local, eight hosts with noisy neighbours, Placid moving VMs off them with a
 * few failures and rollbacks, and thousands of decisions. Invented numbers, seeded; only for looking
 * at the HTML report and for the size check.
 */
import { seededRandom } from '../../../lib/engine/random.js';
import type {
  DecisionEntry,
  MigrationEvent,
  SeriesPoint,
  SimulationResult,
} from '../../../lib/sim/result.js';
import { makeRun, makeScenario } from './fixtures.js';

const START = Date.parse('2025-01-05T15:00:00Z'); // 00:00 in Tokyo
const BUCKET_MIN = 10;
const BUCKETS = 144;
const ZONES = ['az1', 'az2', 'az3'];
const ROLES = ['web', 'db', 'worker', 'cache', 'k8s-node', 'consul'];
const iso = (ms: number) => new Date(ms).toISOString();

/** Demand relative to capacity at `minute` of the local day: a base plus three peaks. */
function load(minute: number): number {
  const peak = (h: number) => Math.exp(-(((minute - h * 60) / 70) ** 2));
  return 0.45 + 0.35 * Math.max(peak(9), peak(12), peak(20));
}

const steal = (demand: number, noise: number) => Math.max(0, (demand - 0.8) * 90 + noise);

export function realisticResult(seed = 42): SimulationResult {
  const random = seededRandom(seed);
  const hosts = Array.from({ length: 60 }, (_, i) => ({
    host: `cmp-${ZONES[i % 3]}-${String(Math.floor(i / 3) + 1).padStart(4, '0')}`,
    zone: ZONES[i % 3],
    factor: 0.9 + random() * 0.2 + (i % 7 === 3 ? 0.45 : 0),
  })).sort((a, b) => a.zone.localeCompare(b.zone) || a.host.localeCompare(b.host));
  const migrations = planMigrations(hosts, random);
  const relief = new Map<string, number[]>(hosts.map((h) => [h.host, new Array(BUCKETS).fill(0)]));
  for (const m of migrations) {
    if (m.status !== 'succeeded' || !m.ended_at) continue;
    const from = Math.ceil((Date.parse(m.ended_at) - START) / 60_000 / BUCKET_MIN);
    for (let b = from; b < BUCKETS; b++) {
      relief.get(m.source_host)![b] += 0.09;
      relief.get(m.dest_host)![b] -= 0.02;
    }
  }
  const heatHosts = hosts.map((h) => {
    const baseline: number[] = [];
    const placid: number[] = [];
    for (let b = 0; b < BUCKETS; b++) {
      const demand = load(b * BUCKET_MIN) * h.factor;
      const noise = random() * 1.5;
      baseline.push(round1(steal(demand, noise)));
      placid.push(round1(steal(demand * (1 - relief.get(h.host)![b]), noise)));
    }
    return { host: h.host, zone: h.zone, baseline, placid };
  });
  const times = Array.from({ length: BUCKETS }, (_, b) => iso(START + b * BUCKET_MIN * 60_000));
  const series = {
    baseline: seriesOf(
      times,
      heatHosts.map((h) => h.baseline),
      [],
    ),
    placid: seriesOf(
      times,
      heatHosts.map((h) => h.placid),
      migrations,
    ),
  };
  const sum = (points: SeriesPoint[], f: (p: SeriesPoint) => number) =>
    points.reduce((s, p) => s + f(p), 0) * BUCKET_MIN;
  const count = (status: MigrationEvent['status']) => migrations.filter((m) => m.status === status).length;
  const decisions = decisionLog(migrations, random);
  return {
    scenario: makeScenario({
      name: 'default (3 AZs, 60 hypervisors)',
      seed,
      start: iso(START),
      end: iso(START + 1440 * 60_000),
      minutes: 1440,
      zones: ZONES,
      hosts: 60,
      vms: 1012,
      timezone: 'Asia/Tokyo',
      report_interval_minutes: 1,
      steal_threshold_percent: 10,
      mode: 'auto',
    }),
    runs: {
      baseline: makeRun({
        vm_minutes_in_steal: sum(series.baseline, (p) => p.suffering_vms * 2.1),
        suffering_vm_minutes: sum(series.baseline, (p) => p.suffering_vms),
        p95_steal_percent: 21.4,
        max_steal_percent: 47.9,
      }),
      placid: makeRun({
        vm_minutes_in_steal: sum(series.placid, (p) => p.suffering_vms * 2.1),
        suffering_vm_minutes: sum(series.placid, (p) => p.suffering_vms),
        p95_steal_percent: 8.7,
        max_steal_percent: 31.2,
        plans: 96,
        migrations: {
          started: migrations.length,
          succeeded: count('succeeded'),
          failed: count('failed'),
          rolled_back: count('rolled_back'),
        },
        gb_moved: migrations.reduce((s, m) => s + (m.status === 'succeeded' ? m.bytes : 0), 0) / 1e9,
        peak_bandwidth_mbps: Math.max(...series.placid.map((p) => p.bandwidth_mbps)),
      }),
    },
    heatmap: { bucket_minutes: BUCKET_MIN, times, hosts: heatHosts },
    series,
    migrations,
    decisions,
    elapsed_ms: 97_400,
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

function planMigrations(hosts: { host: string; zone: string; factor: number }[], random: () => number) {
  const out: MigrationEvent[] = [];
  const hot = hosts.filter((h) => h.factor > 1.2);
  for (const [peakIndex, peakHour] of [8.5, 11.5, 19.5].entries()) {
    for (const h of hot) {
      const moves = 1 + Math.floor(random() * (peakIndex === 0 ? 4 : 2));
      for (let k = 0; k < moves; k++) {
        const sameZone = hosts.filter((d) => d.zone === h.zone && d.factor < 1.05);
        const dest = sameZone[Math.floor(random() * sameZone.length)];
        const startMin = peakHour * 60 + k * 12 + random() * 20;
        const seconds = 60 + random() * 420;
        const roll = random();
        const status = roll < 0.08 ? 'failed' : roll < 0.13 ? 'rolled_back' : 'succeeded';
        const role = ROLES[Math.floor(random() * ROLES.length)];
        const n = out.length + 1;
        out.push({
          migration_id: `mig-${String(n).padStart(4, '0')}`,
          plan_id: `plan-${String(Math.floor(startMin / 15)).padStart(3, '0')}`,
          wave: k + 1,
          instance_uuid: `6f1c${String(n).padStart(4, '0')}-1b2d-4c3e-9f10-${String(n * 7919).padStart(12, '0')}`,
          vm_name: n === 5 ? '<script>alert("x")</script>' : `${role}-${String(n * 13).padStart(4, '0')}`,
          role,
          zone: h.zone,
          source_host: h.host,
          dest_host: dest.host,
          started_at: iso(START + startMin * 60_000),
          ended_at: iso(START + startMin * 60_000 + seconds * 1000),
          status,
          bytes: Math.round((4 + random() * 28) * 2 ** 30),
          reason: `steal ${(15 + random() * 20).toFixed(1)}% on ${h.host} (noisy neighbour), predicted ${(2 + random() * 4).toFixed(1)}% on ${dest.host}`,
          error:
            status === 'failed'
              ? 'MigrationTimeout: memory dirtied faster than the link copies (not converging after 6 passes)'
              : status === 'rolled_back'
                ? 'ConsulUnhealthy: service check failed on the destination; VM moved back'
                : undefined,
        });
      }
    }
  }
  // One move starts just before the end of the day and is still running when the simulation stops.
  const late = out[out.length - 1];
  out.push({
    ...late,
    migration_id: 'mig-late',
    status: 'running',
    error: undefined,
    ended_at: undefined,
    instance_uuid: `${late.instance_uuid.slice(0, -4)}9999`,
    vm_name: 'worker-9999',
    started_at: iso(START + (1440 - 6) * 60_000),
  });
  return out.sort((a, b) => a.started_at.localeCompare(b.started_at));
}

function seriesOf(times: string[], values: number[][], migrations: MigrationEvent[]): SeriesPoint[] {
  return times.map((at, b) => {
    const column = values.map((v) => v[b]).sort((x, y) => x - y);
    const t = Date.parse(at);
    const running = migrations.filter(
      (m) => Date.parse(m.started_at) <= t && (m.ended_at ? Date.parse(m.ended_at) > t : true),
    );
    return {
      at,
      p95_steal_percent: round1(column[Math.floor(column.length * 0.95)] * 1.25),
      mean_steal_percent: round1(column.reduce((s, v) => s + v, 0) / column.length),
      suffering_vms: column.reduce((s, v) => s + Math.round(Math.max(0, v - 8) * 0.8), 0),
      migrations_running: running.length,
      bandwidth_mbps: running.length * 850,
    };
  });
}

const SKIPS: Array<[string, string]> = [
  ['no_destination', 'no host in the zone has 16,384 MB RAM and steal under 5% left'],
  ['cooldown', 'moved 42 min ago; cooldown is 180 min'],
  ['budget', 'the zone already runs 2 migrations (limit 2)'],
  ['blackout', 'blackout 11:30–12:30 Asia/Tokyo (lunch peak)'],
  ['too_little_benefit', 'predicted gain 1.2 pp is under the 3.0 pp minimum'],
  ['recovers_without_moving', 'steal falls below the threshold within 10 min at current load'],
];

function decisionLog(migrations: MigrationEvent[], random: () => number): SimulationResult['decisions'] {
  const entries: DecisionEntry[] = migrations.map((m) => ({
    at: m.started_at,
    plan_id: m.plan_id,
    instance_uuid: m.instance_uuid,
    decision: 'moved',
    reason: m.reason,
  }));
  for (let i = 0; i < 3400; i++) {
    const [decision, reason] = SKIPS[Math.floor(random() ** 1.6 * SKIPS.length)];
    const minute = [9, 12, 20][i % 3] * 60 - 60 + random() * 150;
    entries.push({
      at: iso(START + minute * 60_000),
      plan_id: `plan-${String(Math.floor(minute / 15)).padStart(3, '0')}`,
      instance_uuid: `0a${String(i).padStart(6, '0')}-77aa-4b1c-8d2e-${String(i * 31).padStart(12, '0')}`,
      decision,
      reason,
    });
  }
  entries.sort((a, b) => a.at.localeCompare(b.at));
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.decision, (counts.get(e.decision) ?? 0) + 1);
  return { counts: [...counts].map(([decision, count]) => ({ decision, count })), entries };
}
