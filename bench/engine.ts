/**
 * The engine's budget, as an embedding service sees it: one decision through `createScheduler` on
 * a prepared fleet of 10k and 100k hosts, including the JSON the caller reads. Explained (every
 * weighed host, every elimination with its reason) and unexplained, run alternately in one process
 * so a busy machine slows both alike. Budget: explained ≤ 10 ms at 10k hosts, ≤ 100 ms at 100k.
 */
import { createScheduler } from '../lib/engine/index.js';
import { generateHostInputs, PLACEMENT_CONFIG, PLACEMENT_REQUEST } from './placement.js';
import { percentile, round } from './stats.js';

const SIZES = [10_000, 100_000];

export async function benchEngine(): Promise<Record<string, unknown>> {
  const scheduler = createScheduler(PLACEMENT_CONFIG);
  const out: Record<string, unknown> = {
    note: 'createScheduler(config).schedule(preparedFleet, request, { explain }) including its DecisionJson; CPU µs per decision (process.cpuUsage), the figure to read on a shared machine.',
    budget_explained_ms: { hosts_10000: 10, hosts_100000: 100 },
  };
  for (const n of SIZES) {
    const fleet = scheduler.prepare(generateHostInputs(n));
    const runs = n >= 100_000 ? 40 : 200;
    const cpu = { explained: [] as number[], unexplained: [] as number[] };
    let eliminated = 0;
    let weighed = 0;
    for (let i = 0; i < runs + Math.ceil(runs / 5); i++) {
      for (const explain of [true, false]) {
        const c0 = process.cpuUsage();
        const json = await scheduler.schedule(fleet, PLACEMENT_REQUEST, { explain });
        const c = process.cpuUsage(c0);
        if (json.error) throw new Error(`bench request was not placed: ${json.error.message}`);
        if (explain) {
          eliminated = json.eliminated.length;
          weighed = json.weighed.length;
        }
        // The first fifth warms the JIT up.
        if (i >= Math.ceil(runs / 5)) cpu[explain ? 'explained' : 'unexplained'].push(c.user + c.system);
      }
    }
    const stats = (xs: number[]) => {
      xs.sort((a, b) => a - b);
      return { cpu_p50_us: round(percentile(xs, 50)), cpu_p99_us: round(percentile(xs, 99)) };
    };
    const row = {
      runs,
      weighed,
      eliminated,
      explained: stats(cpu.explained),
      unexplained: stats(cpu.unexplained),
    };
    out[`hosts_${n}`] = row;
    process.stdout.write(`engine ${n} hosts: ${JSON.stringify(row)}\n`);
  }
  return out;
}
