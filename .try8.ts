import { generateFleet } from './lib/sim/fleet.js';
import { Planner } from './lib/rebalance/planner.js';
import { relieveHost } from './lib/rebalance/relief.js';
import { detect } from './lib/rebalance/detect.js';
import { hostObservation } from './lib/rebalance/fleetInput.js';
import { defaultRebalanceSettings } from './lib/rebalance/settings.js';
const fleet = generateFleet({ hosts: 1000, vms: 20000, seed: 3 });
const settings = { ...defaultRebalanceSettings() };
const detection = detect({ now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances }, settings);
for (let i = 0; i < 3; i++) { const p = new Planner({ fleet, settings, detection }); for (const h of p.hostsToRelieve()) await relieveHost(p, h); }
const { Session } = await import('node:inspector/promises');
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 100 }); await s.post('Profiler.start');
for (let i = 0; i < 5; i++) { const p = new Planner({ fleet, settings, detection }); for (const h of p.hostsToRelieve()) await relieveHost(p, h); }
const { profile } = await s.post('Profiler.stop');
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>(); for (const n of profile.nodes as any[]) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map<string, number>(), incl = new Map<string, number>();
const dt = profile.timeDeltas!;
const key = (n: any) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
for (let i = 0; i < profile.samples!.length; i++) {
  let id = profile.samples![i]; const n = byId.get(id) as any; self.set(key(n), (self.get(key(n)) ?? 0) + dt[i]);
  const seen = new Set<string>();
  while (id !== undefined) { const m = byId.get(id) as any; const k = key(m); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + dt[i]); } id = parent.get(id)!; }
}
const total = dt.reduce((a: number, b: number) => a + b, 0);
console.log('total ms', (total / 1000).toFixed(0));
console.log('SELF'); console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${(v / 1000).toFixed(0)} ${k}`).join('\n'));
console.log('INCL'); console.log([...incl].sort((a, b) => b[1] - a[1]).slice(0, 45).map(([k, v]) => `${(v / 1000).toFixed(0)} ${k}`).join('\n'));
