import { resolveConfig } from '../lib/config/load.js';
import { Fleet } from '../lib/engine/fleet.js';
import { createScheduler } from '../lib/engine/registry.js';
import { parseRequestSpec } from '../lib/model/requestSchema.js';
import { generateHosts } from '../bench/placement.js';
const config = resolveConfig({ filter_scheduler: { enabled_filters: ['AvailabilityZoneFilter','AggregateInstanceExtraSpecsFilter','ComputeFilter','ComputeCapabilitiesFilter','ImagePropertiesFilter','ServerGroupAntiAffinityFilter','ServerGroupAffinityFilter'], weight_classes: ['nova.scheduler.weights.all_weighers'] } }, 'bench');
const s = createScheduler(config);
const spec = parseRequestSpec({ flavor: { name: 'm1.large', vcpus: 4, memory_mb: 8192, root_gb: 40, extra_specs: { 'aggregate_instance_extra_specs:storage': 'ssd', 'capabilities:hypervisor_type': 'QEMU' } }, image: { id: 'img-1', properties: { hw_architecture: 'x86_64' } }, availability_zone: 'az2' });
const fleet = Fleet.from(generateHosts(100000));
for (let i = 0; i < 20; i++) await s.schedule(fleet, spec);
const t0 = performance.now();
const N = 50;
for (let i = 0; i < N; i++) await s.schedule(fleet, spec);
console.log('ms/decision', (performance.now() - t0) / N);
// stage timing
const { placementPrefilter } = await import('../lib/engine/prefilter/index.js');
const ctx = { config, now: new Date(), index: 0, fleet };
let t = performance.now(); let pre;
for (let i = 0; i < N; i++) pre = placementPrefilter(fleet.hosts, spec, ctx, false);
console.log('prefilter ms', (performance.now() - t) / N, pre.hosts.length);
const { runFilters } = await import('../lib/engine/filterHandler.js');
t = performance.now(); let fr;
for (let i = 0; i < N; i++) fr = await runFilters(s.filters, pre.hosts, spec, ctx, false);
console.log('filters ms', (performance.now() - t) / N, fr.hosts.length, fr.counts);
const { weighHosts } = await import('../lib/engine/weighing.js');
t = performance.now();
for (let i = 0; i < N; i++) weighHosts(s.weighers, fr.hosts, spec, ctx, false);
console.log('weigh ms', (performance.now() - t) / N);
for (const f of s.filters) {
  const st = f.prepare ? await f.prepare(spec, ctx) : undefined;
  const t1 = performance.now();
  let c = 0;
  for (let k = 0; k < 10; k++) for (const h of pre.hosts) if (f.hostPasses(h, spec, st, ctx)) c++;
  console.log(f.name, typeof st === 'symbol' ? 'PASS_ALL' : '', ((performance.now() - t1) / 10).toFixed(2), 'ms', c / 10);
}
for (const w of s.weighers) {
  const st = w.prepare ? w.prepare(spec, ctx) : undefined;
  const t1 = performance.now();
  for (let k = 0; k < 10; k++) for (const h of fr.hosts) { w.weigh(h, spec, st, ctx); w.multiplier(h, ctx); }
  console.log(w.name, typeof st === 'symbol' ? 'ALL_ZERO' : '', ((performance.now() - t1) / 10).toFixed(2), 'ms');
}
