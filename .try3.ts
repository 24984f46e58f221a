import { generateFleet } from './lib/sim/fleet.js';
import { planRebalance } from './lib/rebalance/planner.js';
import { detect } from './lib/rebalance/detect.js';
import { hostObservation } from './lib/rebalance/fleetInput.js';
import { defaultRebalanceSettings } from './lib/rebalance/settings.js';
const [hosts, vms] = process.argv.slice(2).map(Number);
const fleet = generateFleet({ hosts, vms, seed: 3 });
const settings = { ...defaultRebalanceSettings(), noisy_neighbour_moves: process.env.NOISY === '1' };
let detection;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (let i = 0; i < 5; i++) {
  const t = performance.now(); const c = cpu();
  detection = detect({ now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances }, settings);
  console.log('detect ms', (performance.now() - t).toFixed(1), 'cpu', (cpu() - c).toFixed(1));
}
for (let i = 0; i < 8; i++) {
  const t = performance.now(); const c = cpu();
  const plan = await planRebalance({ fleet, settings, detection });
  console.log('plan ms', (performance.now() - t).toFixed(1), 'cpu', (cpu() - c).toFixed(1), JSON.stringify(plan.summary));
}
