import { generateFleet } from './lib/sim/fleet.js';
import { planRebalance } from './lib/rebalance/planner.js';
import { detect } from './lib/rebalance/detect.js';
import { hostObservation } from './lib/rebalance/fleetInput.js';
import { defaultRebalanceSettings } from './lib/rebalance/settings.js';
const [hosts, vms] = process.argv.slice(2).map(Number);
const fleet = generateFleet({ hosts, vms, seed: 3 });
const settings = { ...defaultRebalanceSettings(), noisy_neighbour_moves: process.env.NOISY === '1' };
let t = performance.now();
const detection = detect({ now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances }, settings);
console.log('detect ms', (performance.now() - t).toFixed(1), 'suffering', detection.suffering.length, 'contended', detection.hosts.filter(h=>h.status==='contended').length);
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const plan = await planRebalance({ fleet, settings, detection });
  console.log('plan ms', (performance.now() - t).toFixed(1), JSON.stringify(plan.summary));
  if (i === 0) {
    const codes = new Map<string, number>(); for (const s of plan.skipped) codes.set(s.code, (codes.get(s.code) ?? 0) + 1);
    console.log(codes);
    console.log(plan.migrations.slice(0,2));
    console.log(plan.skipped.filter(s=>s.code!=='recovers_without_moving').slice(0,3));
    console.log(plan.skipped.filter(s=>s.code==='recovers_without_moving').slice(0,1));
  }
}
