import { type ConfigOf, defaultsFor } from './table.js';

/**
 * Nova's scheduler options, with Nova's groups, names and defaults, plus Placid's own `[placid]`
 * group. One table drives parsing, validation, suggestions and documentation.
 */

export type OptionType = 'bool' | 'int' | 'float' | 'string' | 'list' | 'multistring';

export interface OptionSpec {
  type: OptionType;
  default: unknown;
  min?: number;
  /** 0 reads as None (unset): Nova's pre-Stein `*_allocation_ratio = 0.0` meant "use the default". */
  zeroIsUnset?: boolean;
  help: string;
}

const RATIO_HELP = "Ratio for hosts that report none (a host's reported ratio wins); 0.0 means unset";
const INITIAL_RATIO_HELP = 'Ratio for hosts that report none';

export const DEFAULT_ENABLED_FILTERS = [
  'ComputeFilter',
  'ComputeCapabilitiesFilter',
  'ImagePropertiesFilter',
  'ServerGroupAntiAffinityFilter',
  'ServerGroupAffinityFilter',
];

export const OPTIONS = {
  filter_scheduler: {
    enabled_filters: { type: 'list', default: DEFAULT_ENABLED_FILTERS, help: 'Filters to run, in order' },
    available_filters: {
      type: 'multistring',
      default: ['nova.scheduler.filters.all_filters'],
      help: 'Filters that may be enabled; module paths of custom filters go here too',
    },
    weight_classes: {
      type: 'list',
      default: ['nova.scheduler.weights.all_weighers'],
      help: 'Weighers to use (class names or dotted Nova names)',
    },
    host_subset_size: { type: 'int', default: 1, min: 1, help: 'Pick randomly among the best N hosts' },
    shuffle_best_same_weighed_hosts: {
      type: 'bool',
      default: false,
      help: 'Shuffle the hosts tied with the best weight',
    },
    max_io_ops_per_host: { type: 'int', default: 8, min: 0, help: 'IoOpsFilter limit' },
    max_instances_per_host: { type: 'int', default: 50, min: 1, help: 'NumInstancesFilter limit' },
    track_instance_changes: { type: 'bool', default: true, help: 'Accepted for compatibility' },
    isolated_images: { type: 'list', default: [], help: 'IsolatedHostsFilter images' },
    isolated_hosts: { type: 'list', default: [], help: 'IsolatedHostsFilter hosts' },
    restrict_isolated_hosts_to_isolated_images: { type: 'bool', default: true, help: 'IsolatedHostsFilter' },
    image_properties_default_architecture: {
      type: 'string',
      default: null,
      help: 'Architecture assumed for images without hw_architecture',
    },
    aggregate_image_properties_isolation_namespace: {
      type: 'string',
      default: null,
      help: 'AggregateImagePropertiesIsolation key namespace',
    },
    aggregate_image_properties_isolation_separator: {
      type: 'string',
      default: '.',
      help: 'AggregateImagePropertiesIsolation namespace separator',
    },
    pci_in_placement: { type: 'bool', default: false, help: 'PCI devices tracked in Placement' },
    ram_weight_multiplier: { type: 'float', default: 1.0, help: 'RAMWeigher' },
    cpu_weight_multiplier: { type: 'float', default: 1.0, help: 'CPUWeigher' },
    disk_weight_multiplier: { type: 'float', default: 1.0, help: 'DiskWeigher' },
    io_ops_weight_multiplier: { type: 'float', default: -1.0, help: 'IoOpsWeigher' },
    num_instances_weight_multiplier: { type: 'float', default: 0.0, help: 'NumInstancesWeigher' },
    hypervisor_version_weight_multiplier: { type: 'float', default: 1.0, help: 'HypervisorVersionWeigher' },
    build_failure_weight_multiplier: { type: 'float', default: 1000000.0, help: 'BuildFailureWeigher' },
    cross_cell_move_weight_multiplier: { type: 'float', default: 1000000.0, help: 'CrossCellWeigher' },
    soft_affinity_weight_multiplier: {
      type: 'float',
      default: 1.0,
      min: 0,
      help: 'ServerGroupSoftAffinityWeigher',
    },
    soft_anti_affinity_weight_multiplier: {
      type: 'float',
      default: 1.0,
      min: 0,
      help: 'ServerGroupSoftAntiAffinityWeigher',
    },
    pci_weight_multiplier: { type: 'float', default: 1.0, min: 0, help: 'PCIWeigher' },
    image_props_weight_multiplier: { type: 'float', default: 0.0, help: 'ImagePropertiesWeigher (0 = off)' },
    image_props_weight_setting: { type: 'list', default: [], help: 'ImagePropertiesWeigher prop=ratio list' },
  },
  metrics: {
    weight_multiplier: { type: 'float', default: 1.0, help: 'MetricsWeigher multiplier' },
    weight_setting: { type: 'list', default: [], help: 'MetricsWeigher name=ratio list' },
    required: { type: 'bool', default: true, help: 'A missing metric is an error' },
    weight_of_unavailable: { type: 'float', default: -10000.0, help: 'Weight for a missing metric' },
  },
  scheduler: {
    max_attempts: { type: 'int', default: 3, min: 1, help: 'Alternates = max_attempts - 1' },
    max_placement_results: { type: 'int', default: 1000, min: 1, help: 'Placement candidate limit' },
    limit_tenants_to_placement_aggregate: { type: 'bool', default: false, help: 'Tenant pre-filter' },
    placement_aggregate_required_for_tenants: { type: 'bool', default: false, help: 'Tenant pre-filter' },
    query_placement_for_image_type_support: { type: 'bool', default: false, help: 'Image type pre-filter' },
    enable_isolated_aggregate_filtering: {
      type: 'bool',
      default: false,
      help: 'Isolated aggregates pre-filter',
    },
    image_metadata_prefilter: {
      type: 'bool',
      default: false,
      help: 'Image properties become required traits',
    },
    query_placement_for_routed_network_aggregates: {
      type: 'bool',
      default: false,
      help: 'Accepted; routed networks are not modelled',
    },
  },
  DEFAULT: {
    service_down_time: { type: 'int', default: 60, min: 1, help: 'ComputeFilter liveness window (s)' },
    default_availability_zone: { type: 'string', default: 'nova', help: 'AZ of hosts without one' },
    cpu_allocation_ratio: { type: 'float', default: null, min: 0, zeroIsUnset: true, help: RATIO_HELP },
    ram_allocation_ratio: { type: 'float', default: null, min: 0, zeroIsUnset: true, help: RATIO_HELP },
    disk_allocation_ratio: { type: 'float', default: null, min: 0, zeroIsUnset: true, help: RATIO_HELP },
    initial_cpu_allocation_ratio: { type: 'float', default: 4.0, min: 0, help: INITIAL_RATIO_HELP },
    initial_ram_allocation_ratio: { type: 'float', default: 1.0, min: 0, help: INITIAL_RATIO_HELP },
    initial_disk_allocation_ratio: { type: 'float', default: 1.0, min: 0, help: INITIAL_RATIO_HELP },
    reserved_host_memory_mb: { type: 'int', default: 512, min: 0, help: 'Placement MEMORY_MB reserved' },
    reserved_host_cpus: { type: 'int', default: 0, min: 0, help: 'Placement VCPU reserved' },
    reserved_host_disk_mb: { type: 'int', default: 0, min: 0, help: 'Placement DISK_GB reserved (MiB)' },
    migrate_max_retries: { type: 'int', default: -1, help: 'Accepted for compatibility' },
  },
  compute: {
    packing_host_numa_cells_allocation_strategy: {
      type: 'bool',
      default: false,
      help: 'NUMA cell order: pack onto the busiest cells (true) or spread (false)',
    },
  },
  workarounds: {
    disable_fallback_pcpu_query: {
      type: 'bool',
      default: false,
      help: 'Skip the VCPU fallback query for pinned guests (hosts without PCPU inventory)',
    },
    skip_hypervisor_version_check_on_lm: { type: 'bool', default: false, help: 'Live-migration check' },
  },
  compute_variant: {
    aggregate_key: {
      type: 'string',
      default: 'compute_variant',
      help: "ComputeVariantFilter: aggregate metadata key holding a host's variant(s), comma-separated",
    },
    hint: {
      type: 'string',
      default: 'compute_variant',
      help: 'ComputeVariantFilter: scheduler hint naming the requested variant',
    },
    metadata_key: {
      type: 'string',
      default: 'compute_variant',
      help: 'ComputeVariantFilter: instance metadata key read when the request has no hint',
    },
    cache_size: {
      type: 'int',
      default: 1024,
      min: 1,
      help: 'ComputeVariantFilter: requests whose instance metadata is kept (LRU, by request id)',
    },
  },
  placid: {
    placement_prefilter: {
      type: 'bool',
      default: true,
      help: 'Run the Placement-equivalent pre-filter (resources, traits, aggregates, request filters)',
    },
    seed: { type: 'int', default: null, help: 'Seed for host_subset_size random choice (reproducible runs)' },
    nova_release: {
      type: 'string',
      default: null,
      help: "Decide as this Nova release (e.g. 26.2.2): its all_weighers; unset, the request's nova_release",
    },
  },
} as const satisfies Record<string, Record<string, OptionSpec>>;

/** The resolved configuration: every group and option with its value (defaults filled in). */
export type SchedulerConfig = ConfigOf<typeof OPTIONS>;

/** A fresh config with Nova's defaults. */
export function defaultConfig(): SchedulerConfig {
  return defaultsFor(OPTIONS);
}
