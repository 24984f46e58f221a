import { generateFleet } from './lib/sim/fleet.js';
import { Planner } from './lib/rebalance/planner.js';
import { relieveHost } from './lib/rebalance/relief.js';
import { detect } from './lib/rebalance/detect.js';
import { hostObservation } from './lib/rebalance/fleetInput.js';
import { defaultRebalanceSettings } from './lib/rebalance/settings.js';
import { predictOutcome } from './lib/rebalance/outcome.js';
import { finalSkips } from './lib/rebalance/recovery.js';
import * as dest from './lib/rebalance/destination.js';
const fleet = generateFleet({ hosts: 1000, vms: 20000, seed: 3 });
const settings = { ...defaultRebalanceSettings() };
const detection = detect({ now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances }, settings);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (let i = 0; i < 6; i++) {
  let c = cpu();
  const p = new Planner({ fleet, settings, detection });
  const t1 = cpu() - c; c = cpu();
  for (const h of p.hostsToRelieve()) await relieveHost(p, h);
  const t2 = cpu() - c; c = cpu();
  const o = predictOutcome(p.detection, p.migrations, p.vcpusOf, settings);
  finalSkips(p, o);
  const t3 = cpu() - c;
  console.log('ctor', t1.toFixed(1), 'relieve', t2.toFixed(1), 'final', t3.toFixed(1));
}
