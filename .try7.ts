import { generateFleet } from './lib/sim/fleet.js';
import { Planner } from './lib/rebalance/planner.js';
import { relieveHost } from './lib/rebalance/relief.js';
import { detect } from './lib/rebalance/detect.js';
import { hostObservation } from './lib/rebalance/fleetInput.js';
import { defaultRebalanceSettings } from './lib/rebalance/settings.js';
import { Scheduler } from './lib/engine/scheduler.js';
import { PlanState } from './lib/rebalance/planState.js';
const fleet = generateFleet({ hosts: 1000, vms: 20000, seed: 3 });
const settings = { ...defaultRebalanceSettings() };
const detection = detect({ now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances }, settings);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
let sched = 0, n = 0, fl = 0, nf = 0;
const orig = Scheduler.prototype.schedule;
Scheduler.prototype.schedule = async function (...a: any[]) { const c = cpu(); const r = await (orig as any).apply(this, a); sched += cpu() - c; n++; return r; };
const of = PlanState.prototype.fleetOfCell;
PlanState.prototype.fleetOfCell = function (...a: any[]) { const c = cpu(); const r = (of as any).apply(this, a); fl += cpu() - c; nf++; return r; };
for (let i = 0; i < 4; i++) {
  sched = 0; n = 0; fl = 0; nf = 0;
  const c = cpu();
  const p = new Planner({ fleet, settings, detection });
  for (const h of p.hostsToRelieve()) await relieveHost(p, h);
  console.log('relieve total', (cpu() - c).toFixed(1), 'schedule', sched.toFixed(1), 'calls', n, 'fleet', fl.toFixed(1), nf);
}
