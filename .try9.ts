import { generateFleet } from './lib/sim/fleet.js';
import { Planner } from './lib/rebalance/planner.js';
import { PlanState } from './lib/rebalance/planState.js';
import { detect } from './lib/rebalance/detect.js';
import { hostObservation } from './lib/rebalance/fleetInput.js';
import { defaultRebalanceSettings } from './lib/rebalance/settings.js';
import { defaultConfig } from './lib/config/options.js';
const fleet = generateFleet({ hosts: 1000, vms: 20000, seed: 3 });
const settings = { ...defaultRebalanceSettings() };
const detection = detect({ now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances }, settings);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const config = defaultConfig();
for (let i = 0; i < 6; i++) {
  let c = cpu();
  new PlanState(fleet.hypervisors.map((h) => h.state), detection.hosts, fleet.instances, config);
  const a = cpu() - c; c = cpu();
  new Planner({ fleet, settings, detection });
  const b = cpu() - c;
  console.log('state', a.toFixed(1), 'planner', b.toFixed(1));
}
