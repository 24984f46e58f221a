/**
 * For profiling the bench's unexplained decision at one fleet size (10k hosts by default):
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profilePlacement.ts [hosts] [runs]
 * then open the .cpuprofile in Chrome DevTools. Prints the CPU time per decision (p50) at the end.
 */
import { Fleet } from '../lib/engine/fleet.js';
import { generateHosts, placementSetup } from './placement.js';

const hosts = Number(process.argv[2] ?? 10_000);
const runs = Number(process.argv[3] ?? 2_000);
const explain = process.argv[4] === 'explain';
const { scheduler, spec } = placementSetup();
const fleet = Fleet.from(generateHosts(hosts));
const cpu: number[] = [];
for (let i = 0; i < runs; i++) {
  const start = process.cpuUsage();
  const d = await scheduler.schedule(fleet, spec, { explain });
  const used = process.cpuUsage(start);
  if (d.error) throw new Error(d.error.message);
  if (i >= runs / 10) cpu.push(used.user + used.system);
}
cpu.sort((a, b) => a - b);
process.stdout.write(
  `${hosts} hosts, ${runs} ${explain ? 'explained' : 'unexplained'} decisions: CPU p50 ${cpu[cpu.length >> 1]} µs\n`,
);
