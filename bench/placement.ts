/**
 * One placement decision over 1k, 10k and 100k in-memory hosts: Placement pre-filter, Nova's default
 * filters plus AvailabilityZoneFilter and AggregateInstanceExtraSpecsFilter, and every weigher.
 */
import { resolveConfig } from '../lib/config/load.js';
import { Fleet } from '../lib/engine/fleet.js';
import { createScheduler } from '../lib/engine/registry.js';
import type { HostState } from '../lib/model/hostState.js';
import { hostStateInput, toHostState } from '../lib/model/hostSchema.js';
import { parseRequestSpec } from '../lib/model/requestSchema.js';
import { mib, time, writeSection } from './stats.js';

const SIZES = [1_000, 10_000, 100_000];

/** A fleet of `n` hosts in 3 AZs, 2 hardware classes (aggregate metadata), varied usage. */
export function generateHosts(n: number): HostState[] {
  const zones = ['az1', 'az2', 'az3'];
  const hosts: HostState[] = [];
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let i = 0; i < n; i++) {
    const az = zones[i % 3];
    const ssd = i % 2 === 0;
    const ram = 262144;
    const usedRam = Math.floor(rnd() * 200000);
    const vcpus = 64;
    hosts.push(
      toHostState(
        hostStateInput.parse({
          host: `cmp-${i}`,
          nodename: `cmp-${i}`,
          free_ram_mb: ram - usedRam - 512,
          total_usable_ram_mb: ram,
          total_usable_disk_gb: 2000,
          free_disk_mb: Math.floor((2000 - rnd() * 1500) * 1024),
          disk_mb_used: 0,
          vcpus_total: vcpus,
          vcpus_used: Math.floor(rnd() * 200),
          cpu_allocation_ratio: 4,
          num_instances: Math.floor(rnd() * 40),
          num_io_ops: Math.floor(rnd() * 6),
          hypervisor_type: 'QEMU',
          hypervisor_version: 8002000,
          supported_instances: [['x86_64', 'kvm', 'hvm']],
          service: { disabled: i % 97 === 0, up: true },
          aggregates: [
            { name: `zone-${az}`, hosts: [], metadata: { availability_zone: az } },
            { name: ssd ? 'ssd' : 'hdd', hosts: [], metadata: { storage: ssd ? 'ssd' : 'hdd', cpu_gen: ssd ? '4' : '3' } },
          ],
        }),
      ),
    );
  }
  return hosts;
}

export async function benchPlacement(): Promise<Record<string, unknown>> {
  const config = resolveConfig(
    {
      filter_scheduler: {
        enabled_filters: [
          'AvailabilityZoneFilter',
          'AggregateInstanceExtraSpecsFilter',
          'ComputeFilter',
          'ComputeCapabilitiesFilter',
          'ImagePropertiesFilter',
          'ServerGroupAntiAffinityFilter',
          'ServerGroupAffinityFilter',
        ],
        weight_classes: ['nova.scheduler.weights.all_weighers'],
      },
    },
    'bench',
  );
  const scheduler = createScheduler(config);
  const spec = parseRequestSpec({
    flavor: {
      name: 'm1.large',
      vcpus: 4,
      memory_mb: 8192,
      root_gb: 40,
      extra_specs: { 'aggregate_instance_extra_specs:storage': 'ssd', 'capabilities:hypervisor_type': 'QEMU' },
    },
    image: { id: 'img-1', properties: { hw_architecture: 'x86_64' } },
    availability_zone: 'az2',
  });
  const out: Record<string, unknown> = {};
  for (const n of SIZES) {
    const fleet = Fleet.from(generateHosts(n));
    const before = process.memoryUsage();
    let peak = before.heapUsed;
    const runs = n >= 100_000 ? 60 : 300;
    const timing = await time(async () => {
      const d = await scheduler.schedule(fleet, spec);
      if (d.error) throw new Error(`bench request was not placed: ${d.error.message}`);
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, runs);
    out[`hosts_${n}`] = {
      ...timing,
      ns_per_host: Math.round((timing.p50_us * 1000) / n),
      heap_used_mib: mib(before.heapUsed),
      peak_heap_mib: mib(peak),
      rss_mib: mib(process.memoryUsage().rss),
    };
    process.stdout.write(`placement ${n} hosts: p50 ${timing.p50_us} µs, p99 ${timing.p99_us} µs\n`);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeSection('placement', await benchPlacement());
}
