import fc from 'fast-check';
import type { OracleCase } from './case.js';

/**
 * fast-check generators for differential cases. Values come from small pools so that hosts,
 * aggregates, flavors, images and hints often meet (a random string rarely matches another), and
 * every value is one Nova 26 accepts (its objects validate enums such as hw_architecture).
 */

type Json = Record<string, unknown>;

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const INSTANCES = [1, 2, 3, 4, 5, 6].map((n) => uuid(100 + n));
const CELLS = [uuid(900), uuid(901)];
const HYPERVISORS = ['QEMU', 'kvm', 'xen', 'ironic'];
const ARCHES = ['x86_64', 'aarch64', 'i686'];
const HV_TYPES = ['kvm', 'qemu', 'xen'];
const VM_MODES = ['hvm', 'xen'];
const DISTROS = ['ubuntu', 'rhel', 'debian', 'windows'];
const FLAVORS = ['m1.small', 'm1.large', 'gpu.xl'];
const PROJECTS = ['p1', 'p2', 'p3'];
const IMAGES = [uuid(500), uuid(501), uuid(502)];
const IPS = ['10.0.0.5', '10.0.1.9', '192.168.3.4', null];
const METRICS = ['cpu.frequency', 'cpu.percent', 'cpu.user.percent', 'numa.membw.current'];
const MULTIPLIERS = [
  'ram_weight_multiplier',
  'cpu_weight_multiplier',
  'disk_weight_multiplier',
  'io_ops_weight_multiplier',
  'build_failure_weight_multiplier',
  'cross_cell_move_weight_multiplier',
  'soft_affinity_weight_multiplier',
  'soft_anti_affinity_weight_multiplier',
  'pci_weight_multiplier',
  'metrics_weight_multiplier',
];

/** A flavor requirement in one of Nova's extra-spec operator forms, for a value like `host`. */
function requirement(strings: string[], numbers: number[]): fc.Arbitrary<string> {
  const s = fc.constantFrom(...strings);
  const n = fc.constantFrom(...numbers);
  return fc.oneof(
    s,
    fc.tuple(fc.constantFrom('s==', 's!=', 's<', 's<=', 's>', 's>=', '<in>'), s).map(([o, v]) => `${o} ${v}`),
    fc.tuple(fc.constantFrom('=', '==', '!=', '>=', '<='), n).map(([o, v]) => `${o} ${v}`),
    fc.array(s, { minLength: 1, maxLength: 3 }).map((vs) => `<or> ${vs.join(' <or> ')}`),
    fc.array(s, { minLength: 1, maxLength: 2 }).map((vs) => `<all-in> ${vs.join(' ')}`),
  );
}

const textValues = ['ssd', 'hdd', 'True', 'False', 'fast', 'x86_64', 'kvm', 'QEMU', 'a b'];
const numberValues = [0, 1, 2, 4, 8, 6000000];

/** Aggregate metadata: AZs, tenants, flavors, I/O and instance limits, image props, multipliers. */
const aggregateMetadata: fc.Arbitrary<Json> = fc.record(
  {
    availability_zone: fc.constantFrom('az1', 'az2'),
    filter_tenant_id: fc.constantFrom('p1', 'p2', 'p1,p3'),
    instance_type: fc.constantFrom('m1.small', 'm1.large,gpu.xl', 'gpu.xl'),
    max_io_ops_per_host: fc.constantFrom('0', '2', '5', 'x'),
    max_instances_per_host: fc.constantFrom('1', '3', '10'),
    ssd: fc.constantFrom(...textValues),
    speed: fc.constantFrom('1', '4', '8'),
    os_distro: fc.constantFrom('ubuntu', 'rhel', 'ubuntu,debian'),
    hw_architecture: fc.constantFrom(...ARCHES),
    'ns.os_distro': fc.constantFrom('ubuntu', 'rhel'),
    [MULTIPLIERS[0]]: fc.constantFrom('2', '-1', '0.5'),
    [MULTIPLIERS[3]]: fc.constantFrom('2', '-3'),
    [MULTIPLIERS[4]]: fc.constantFrom('10', '0'),
    [MULTIPLIERS[6]]: fc.constantFrom('2', '0'),
    [MULTIPLIERS[8]]: fc.constantFrom('3', '0'),
    [MULTIPLIERS[9]]: fc.constantFrom('2', '-1'),
  },
  { requiredKeys: [] },
);

const aggregates = fc.uniqueArray(
  fc.record({ name: fc.constantFrom('agg-a', 'agg-b', 'agg-c'), metadata: aggregateMetadata }),
  { maxLength: 3, selector: (a) => a.name },
);

const metric = fc.oneof(
  fc.record({ name: fc.constantFrom(...METRICS), value: fc.integer({ min: 0, max: 5000 }) }),
  // Nova's MonitorMetric for memory bandwidth carries per-NUMA values and may carry no value.
  fc.record({
    name: fc.constant('numa.membw.current'),
    numa_membw_values: fc.dictionary(fc.constantFrom('0', '1'), fc.integer({ min: 0, max: 100 })),
  }),
);

const service = fc.record(
  { disabled: fc.boolean(), up: fc.boolean(), forced_down: fc.boolean() },
  { requiredKeys: ['disabled', 'up'] },
);

const cpuInfo = fc
  .record({
    arch: fc.constantFrom(...ARCHES),
    vendor: fc.constantFrom('Intel', 'AMD'),
    features: fc.subarray(['avx', 'avx2', 'sse4']),
    maxphysaddr: fc.record({ bits: fc.constantFrom(39, 46, 52) }),
  })
  .map((c) => JSON.stringify(c));

const stats = fc.record(
  {
    gpu: fc.constantFrom('0', '1', '4'),
    // What the resource tracker reports; Nova's HostState takes both counters from here.
    num_instances: fc.constantFrom('0', '2', '7'),
    io_workload: fc.constantFrom('0', '3', '9'),
    ssd: fc.constantFrom(...textValues),
    // ComputeCapabilitiesFilter walks nested dicts (`capabilities:stats:...` or a stats key's dict).
    accel: fc.record({ vendor: fc.constantFrom('nvidia', 'amd'), count: fc.constantFrom('1', '2') }),
  },
  { requiredKeys: [] },
);

/** One host document, in Placid's input format. Ratios are always given (Nova's scheduler reads them). */
function host(name: string, aggs: Json[]): fc.Arbitrary<Json> {
  return fc
    .record(
      {
        free_ram_mb: fc.integer({ min: -512, max: 16384 }),
        total_usable_ram_mb: fc.integer({ min: 0, max: 16384 }),
        free_disk_mb: fc.integer({ min: -1024, max: 200000 }),
        total_usable_disk_gb: fc.integer({ min: 0, max: 200 }),
        disk_mb_used: fc.integer({ min: 0, max: 100000 }),
        vcpus_total: fc.integer({ min: 0, max: 64 }),
        vcpus_used: fc.integer({ min: 0, max: 80 }),
        cpu_allocation_ratio: fc.constantFrom(1, 4, 16),
        ram_allocation_ratio: fc.constantFrom(1, 1.5),
        disk_allocation_ratio: fc.constantFrom(1, 2),
        cell_uuid: fc.constantFrom(...CELLS),
        aggregates: fc.subarray(aggs),
        instances: fc.subarray(INSTANCES, { maxLength: 4 }),
        num_io_ops: fc.integer({ min: 0, max: 12 }),
        num_instances: fc.integer({ min: 0, max: 8 }),
        failed_builds: fc.integer({ min: 0, max: 3 }),
        metrics: fc.uniqueArray(metric, { maxLength: 3, selector: (m) => m.name }),
        service,
        hypervisor_type: fc.constantFrom(...HYPERVISORS),
        hypervisor_version: fc.constantFrom(6000000, 4002001, 2011000),
        supported_instances: fc.subarray([
          ['x86_64', 'kvm', 'hvm'],
          ['aarch64', 'qemu', 'hvm'],
          ['x86_64', 'xen', 'xen'],
          ['i686', 'qemu', 'hvm'],
        ]),
        cpu_info: cpuInfo,
        host_ip: fc.constantFrom(...IPS),
        stats,
        rack: fc.constantFrom('r1', 'r2'),
      },
      {
        requiredKeys: ['cpu_allocation_ratio', 'ram_allocation_ratio', 'disk_allocation_ratio', 'cell_uuid'],
      },
    )
    .map((h) => ({ host: name, ...h, ...instanceCount(h) }));
}

/**
 * A compute node always reports num_instances (in stats). Placid's fallback for a host given
 * without one, counting its instance map, is not Nova's (0) and is left out of the comparison.
 */
function instanceCount(h: Json): Json {
  const stats = (h.stats ?? {}) as Json;
  if (h.num_instances !== undefined || stats.num_instances !== undefined) return {};
  return { num_instances: ((h.instances ?? []) as unknown[]).length };
}

const hosts: fc.Arbitrary<Json[]> = aggregates.chain((aggs) =>
  fc
    .record({ n: fc.integer({ min: 2, max: 5 }), nodes: fc.integer({ min: 0, max: 3 }).map((x) => x === 0) })
    .chain(({ n, nodes }) =>
      fc
        .tuple(...Array.from({ length: n }, (_, i) => host(`host${i}`, aggs)))
        // Sometimes two nodes per host (ironic, or a host with several hypervisors).
        .map((hs) => (nodes ? hs.map((h, i) => ({ ...h, host: `host${i >> 1}`, nodename: `node${i}` })) : hs))
        .map((hs) => {
          // An aggregate's host list holds the hosts that carry it, as Nova's do.
          const aggsOf = (h: Json) => (h.aggregates ?? []) as Json[];
          const members = (name: string) => hs.filter((h) => aggsOf(h).some((a) => a.name === name));
          return hs.map((h) => ({
            ...h,
            aggregates: aggsOf(h).map((a) => ({ ...a, hosts: members(a.name as string).map((m) => m.host) })),
          }));
        }),
    ),
);

const extraSpecs: fc.Arbitrary<Json> = fc.record(
  {
    'capabilities:hypervisor_type': requirement(['QEMU', 'kvm', 'xen'], [1]),
    hypervisor_type: requirement(['QEMU', 'kvm'], [1]),
    'capabilities:hypervisor_version': requirement(['6000000'], [4002001, 6000000]),
    'capabilities:cpu_info:arch': requirement(ARCHES, [1]),
    'capabilities:cpu_info:vendor': requirement(['Intel', 'AMD'], [1]),
    'capabilities:stats:gpu': requirement(['1'], [0, 1, 4]),
    'capabilities:accel:vendor': requirement(['nvidia', 'amd'], [1]),
    'capabilities:vcpus_total': requirement(['8'], [4, 16]),
    rack: requirement(['r1', 'r2'], [1]),
    'aggregate_instance_extra_specs:ssd': requirement(textValues, [1]),
    ssd: requirement(textValues, [1]),
    'aggregate_instance_extra_specs:speed': requirement(['4'], numberValues),
    // No hw:maxphysaddr_bits: Nova 26 ignores it (docs/nova-differences.md, newer Nova).
    'hw:cpu_policy': fc.constantFrom('shared', 'dedicated'),
  },
  { requiredKeys: [] },
);

const imageProperties: fc.Arbitrary<Json> = fc.record(
  {
    hw_architecture: fc.constantFrom(...ARCHES),
    img_hv_type: fc.constantFrom(...HV_TYPES),
    hw_vm_mode: fc.constantFrom(...VM_MODES),
    img_hv_requested_version: fc.constantFrom('>=6.0', '<= 4.2.1', '>= 2.11', '== 6.0'),
    os_distro: fc.constantFrom(...DISTROS),
    os_type: fc.constantFrom('linux', 'windows'),
  },
  { requiredKeys: [] },
);

/** JsonFilter queries over Nova's host attributes, with nesting and dotted lookups. */
const jsonQuery: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  term: fc.oneof(
    fc.tuple(
      fc.constantFrom('=', '<', '>', '<=', '>='),
      fc.constantFrom('$free_ram_mb', '$free_disk_mb', '$vcpus_total', '$num_instances', '$num_io_ops'),
      fc.integer({ min: 0, max: 8192 }),
    ),
    fc.tuple(
      fc.constant('in'),
      fc.constantFrom('$hypervisor_type', '$host', '$rack', '$stats.ssd'),
      ...['QEMU', 'kvm', 'host0', 'r1', 'ssd'].map((v) => fc.constant(v)),
    ),
    fc.tuple(
      fc.constant('='),
      fc.constantFrom('$service.disabled', '$stats.gpu'),
      fc.constantFrom(true, false, '1'),
    ),
    fc.tuple(fc.constant('not'), tie('term')),
    fc.tuple(
      fc.constantFrom('=', '>='),
      fc.constantFrom('$hypervisor_version', '$cpu_info', '$service', '$stats', '$nothing.here'),
      fc.constantFrom(6000000, 'x', null),
    ),
  ),
  node: fc.oneof(
    { depthSize: 'small' },
    tie('term'),
    fc.tuple(fc.constantFrom('and', 'or'), tie('node'), tie('node')),
  ),
})).node;

const hints: fc.Arbitrary<Json | null> = fc.option(
  fc.record(
    {
      same_host: fc.subarray(INSTANCES, { minLength: 1, maxLength: 2 }),
      different_host: fc.subarray(INSTANCES, { minLength: 1, maxLength: 2 }),
      build_near_host_ip: fc.constantFrom('10.0.0.1', '192.168.3.0'),
      cidr: fc.constantFrom('/24', '/16', '/8'),
      query: jsonQuery.map((q) => JSON.stringify(q)),
      // A rebuild: filters without RUN_ON_REBUILD pass every host.
      _nova_check_type: fc.constant('rebuild'),
    },
    { requiredKeys: [] },
  ),
  { freq: 6 },
);

const instanceGroup = fc.option(
  fc.record(
    {
      policy: fc.constantFrom('affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity'),
      hosts: fc.subarray(['host0', 'host1', 'host2', 'host3']),
      members: fc.subarray(INSTANCES),
      rules: fc.option(fc.record({ max_server_per_host: fc.constantFrom('1', '2', '3') }), {
        nil: undefined,
      }),
    },
    { requiredKeys: ['policy', 'hosts', 'members'] },
  ),
  { nil: null, freq: 2 },
);

const destination = fc.option(
  fc.record({
    // Nova gives the cell as a CellMapping; Placid also takes its uuid alone.
    cell: fc.oneof(
      fc.constantFrom(...CELLS).map((u) => ({ uuid: u, name: u === CELLS[0] ? 'cell1' : 'cell2' })),
      fc.constantFrom(...CELLS),
    ),
    allow_cross_cell_move: fc.boolean(),
  }),
  { nil: null, freq: 3 },
);

const request: fc.Arbitrary<Json> = fc
  .record({
    flavor: fc.record({
      name: fc.constantFrom(...FLAVORS),
      vcpus: fc.integer({ min: 1, max: 8 }),
      memory_mb: fc.integer({ min: 256, max: 8192 }),
      root_gb: fc.integer({ min: 0, max: 40 }),
      extra_specs: extraSpecs,
    }),
    image: fc.record({ id: fc.constantFrom(...IMAGES), properties: imageProperties }),
    scheduler_hints: hints,
    availability_zone: fc.option(fc.constantFrom('az1', 'az2', 'nova'), { nil: null }),
    instance_group: instanceGroup,
    project_id: fc.constantFrom(...PROJECTS),
    user_id: fc.constant('u1'),
    instance_uuid: fc.constant(uuid(999)),
    requested_destination: destination,
  })
  .map((r) => ({
    ...r,
    instance_group: r.instance_group && {
      ...r.instance_group,
      members: [...(r.instance_group.members as string[]), uuid(999)],
    },
  }));

const config: fc.Arbitrary<OracleCase['config']> = fc.record({
  filter_scheduler: fc.record(
    {
      max_io_ops_per_host: fc.integer({ min: 0, max: 10 }),
      max_instances_per_host: fc.integer({ min: 1, max: 6 }),
      isolated_images: fc.subarray(IMAGES),
      isolated_hosts: fc.subarray(['host0', 'host1', 'host2']),
      restrict_isolated_hosts_to_isolated_images: fc.boolean(),
      aggregate_image_properties_isolation_namespace: fc.constantFrom('ns'),
      aggregate_image_properties_isolation_separator: fc.constantFrom('.', '_'),
      image_properties_default_architecture: fc.constantFrom('x86_64', 'aarch64'),
      ram_weight_multiplier: fc.constantFrom(1, -1, 2.5),
      cpu_weight_multiplier: fc.constantFrom(1, -2),
      disk_weight_multiplier: fc.constantFrom(1, 0.5),
      io_ops_weight_multiplier: fc.constantFrom(-1, 3),
      build_failure_weight_multiplier: fc.constantFrom(1000000, 5),
      cross_cell_move_weight_multiplier: fc.constantFrom(1000000, -2),
      soft_affinity_weight_multiplier: fc.constantFrom(1, 0, 4),
      soft_anti_affinity_weight_multiplier: fc.constantFrom(1, 0, 4),
      pci_weight_multiplier: fc.constantFrom(1, 0, 2),
    },
    { requiredKeys: [] },
  ),
  metrics: fc.record(
    {
      weight_setting: fc.subarray(['cpu.frequency=1', 'cpu.percent=-0.5', 'numa.membw.current=2']),
      required: fc.boolean(),
      weight_of_unavailable: fc.constantFrom(-10000, -5),
      weight_multiplier: fc.constantFrom(1, -1, 0),
    },
    { requiredKeys: [] },
  ),
  DEFAULT: fc.record({ default_availability_zone: fc.constantFrom('nova', 'az1') }, { requiredKeys: [] }),
});

/** The non-NUMA/PCI part of the scheduler: every host, request and config field above. */
export function generalCase(filters: string[], weighers: string[]): fc.Arbitrary<Omit<OracleCase, 'id'>> {
  return fc.record({ hosts, request, config }).map((c) => ({ ...c, filters, weighers }));
}

/** A host NUMA cell with CPUs numbered from `base`: shared and dedicated CPUs, thread pairs, pages. */
function hostNumaCell(id: number, base: number): fc.Arbitrary<Json> {
  return fc
    .record({
      shared: fc.integer({ min: 0, max: 4 }),
      dedicated: fc.integer({ min: 0, max: 4 }),
      threads: fc.boolean(),
      memory: fc.constantFrom(1024, 2048, 4096),
      memoryUsage: fc.constantFrom(0, 512, 1024),
      cpuUsage: fc.integer({ min: 0, max: 4 }),
      pinned: fc.integer({ min: 0, max: 2 }),
      hugePages: fc.constantFrom(0, 256, 1024),
      hugeUsed: fc.constantFrom(0, 128),
      socket: fc.constantFrom(0, 1, null),
    })
    .map((c) => {
      const cpuset = Array.from({ length: c.shared }, (_, i) => base + i);
      const pcpuset = Array.from({ length: c.dedicated }, (_, i) => base + c.shared + i);
      const all = [...cpuset, ...pcpuset];
      const siblings: number[][] = [];
      // libvirt reports every CPU's siblings, itself included: singletons without SMT.
      const width = c.threads ? 2 : 1;
      for (let i = 0; i < all.length; i += width) siblings.push(all.slice(i, i + width));
      const mempages = [
        { size_kb: 4, total: (c.memory - Math.min(c.hugePages * 2, c.memory)) * 256, used: 0 },
      ];
      if (c.hugePages > 0)
        mempages.push({ size_kb: 2048, total: c.hugePages, used: Math.min(c.hugeUsed, c.hugePages) });
      return {
        id,
        socket: c.socket,
        cpuset,
        pcpuset,
        memory: c.memory,
        memory_usage: Math.min(c.memoryUsage, c.memory),
        cpu_usage: Math.min(c.cpuUsage, cpuset.length),
        pinned_cpus: pcpuset.slice(0, c.pinned),
        siblings,
        mempages,
      };
    });
}

const hostNuma = fc.option(
  fc
    .integer({ min: 1, max: 2 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => hostNumaCell(i, i * 8))))
    .map((cells) => ({ cells })),
  { nil: undefined, freq: 6 },
);

const pciPools = fc.option(
  fc
    .array(
      fc.record(
        {
          vendor_id: fc.constantFrom('8086', '10de'),
          product_id: fc.constantFrom('1520', '1db4'),
          count: fc.integer({ min: 0, max: 3 }),
          numa_node: fc.constantFrom(0, 1, null),
          dev_type: fc.constantFrom('type-PCI', 'type-VF', 'type-PF'),
          physical_network: fc.constantFrom('physnet1', null),
          // Tags change a pool's key count, which orders the pools Nova drains first.
          tags: fc.constantFrom({ trusted: 'true' }, { physical_network: 'physnet1' }, {}),
        },
        { requiredKeys: ['vendor_id', 'product_id', 'count', 'numa_node', 'dev_type'] },
      ),
      { maxLength: 3 },
    )
    .map((pools) => ({ pools })),
  { nil: undefined, freq: 4 },
);

/** A guest NUMA topology as Nova builds it from the flavor: shared, dedicated or mixed cells. */
const guestNuma = fc
  .record({
    cells: fc.integer({ min: 1, max: 2 }),
    policy: fc.constantFrom('shared', 'dedicated', 'mixed'),
    cpus: fc.integer({ min: 1, max: 3 }),
    memory: fc.constantFrom(256, 512, 1024, 2048),
    pagesize: fc.constantFrom(null, 4, 2048, -1, -2, -3),
    thread: fc.constantFrom(null, 'prefer', 'isolate', 'require'),
  })
  .map((g) => {
    let next = 0;
    const ids = (n: number) => Array.from({ length: n }, () => next++);
    const cells = Array.from({ length: g.cells }, (_, id) => {
      const pinned = g.policy === 'shared' ? 0 : g.policy === 'mixed' ? 1 : g.cpus;
      const shared = g.policy === 'dedicated' ? 0 : g.policy === 'mixed' ? Math.max(g.cpus - 1, 1) : g.cpus;
      return {
        id,
        cpuset: ids(shared),
        pcpuset: ids(pinned),
        memory: g.memory,
        pagesize: g.pagesize,
        cpu_thread_policy: g.policy === 'shared' ? null : g.thread,
      };
    });
    const specs: Json = { 'hw:numa_nodes': String(g.cells) };
    if (g.policy !== 'shared') specs['hw:cpu_policy'] = g.policy;
    if (g.policy !== 'shared' && g.thread) specs['hw:cpu_thread_policy'] = g.thread;
    return { topology: { cells }, specs, vcpus: next, memory: g.memory * g.cells };
  });

const pciRequests = fc.array(
  fc.record(
    {
      count: fc.integer({ min: 1, max: 2 }),
      spec: fc.tuple(
        fc.record(
          {
            vendor_id: fc.constantFrom('8086', '10de'),
            product_id: fc.constantFrom('1520', '1db4'),
            dev_type: fc.constantFrom('type-PCI', 'type-VF'),
            physical_network: fc.constant('physnet1'),
          },
          { requiredKeys: ['vendor_id'] },
        ),
      ),
      numa_policy: fc.constantFrom('required', 'preferred', 'legacy', 'socket'),
    },
    { requiredKeys: ['count', 'spec'] },
  ),
  { maxLength: 2 },
);

/** Hosts with NUMA cells and PCI pools, and a request with a guest NUMA topology and PCI requests. */
export function numaPciCase(filters: string[], weighers: string[]): fc.Arbitrary<Omit<OracleCase, 'id'>> {
  const numaHost = (name: string) =>
    fc
      .record(
        {
          numa_topology: hostNuma,
          pci_stats: pciPools,
          // Shared guest cells are limited by the host's ratios (NUMATopologyLimits).
          cpu_allocation_ratio: fc.constantFrom(1, 2, 4),
          ram_allocation_ratio: fc.constantFrom(1, 1.5),
        },
        { requiredKeys: ['cpu_allocation_ratio', 'ram_allocation_ratio'] },
      )
      .map((h) => ({
        host: name,
        disk_allocation_ratio: 1,
        service: { disabled: false, up: true },
        ...h,
      }));
  return fc
    .record({
      hosts: fc
        .integer({ min: 2, max: 4 })
        .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => numaHost(`host${i}`)))),
      guest: fc.option(guestNuma, { nil: null, freq: 5 }),
      pci: pciRequests,
      packing: fc.boolean(),
      // The CPU policy may come from the image; 'require' needs hyper-threads even without a guest topology.
      image: fc.record(
        {
          hw_cpu_policy: fc.constant('dedicated'),
          hw_cpu_thread_policy: fc.constantFrom('require', 'isolate'),
        },
        { requiredKeys: [] },
      ),
      specs: fc.record(
        {
          'hw:cpu_policy': fc.constant('dedicated'),
          'hw:cpu_thread_policy': fc.constantFrom('require', 'prefer'),
        },
        { requiredKeys: [] },
      ),
    })
    .map(({ hosts: hs, guest, pci, packing, image, specs }) => ({
      hosts: hs,
      request: {
        flavor: {
          name: 'numa',
          vcpus: guest?.vcpus ?? 2,
          memory_mb: guest?.memory ?? 1024,
          extra_specs: guest?.specs ?? specs,
        },
        image: { properties: image },
        instance_uuid: uuid(999),
        numa_topology: guest?.topology ?? null,
        pci_requests: pci,
      },
      config: { compute: { packing_host_numa_cells_allocation_strategy: packing } },
      filters,
      weighers,
    }));
}
