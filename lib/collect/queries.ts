/**
 * The PromQL the collector runs, each configurable, with its default and its unit. `$rate_window`
 * in a query is replaced by `collect.rate_window` (default 5m), so one setting tunes every rate().
 * Series keep their labels (`sum without (cpu, mode)`, not `sum by (instance)`), so the mapping can
 * use any target label (a uuid label, fqdn, …). Counter queries use rate(), which never goes
 * negative; the `*_resets` queries find the windows where a counter went back (a reboot or a
 * migration) so those steps become gaps instead of data.
 */

export type EntityKind = 'vm' | 'host';

export interface QuerySpec {
  kind: EntityKind;
  /** What the number means; the report builder converts vCPU counts to percent with the flavor. */
  unit: 'vcpus' | 'percent' | 'load' | 'count';
  default: string | null;
  help: string;
}

export const QUERY_SPECS = {
  vm_steal: {
    kind: 'vm',
    unit: 'vcpus',
    default: 'sum without (cpu, mode) (rate(node_cpu_seconds_total{mode="steal"}[$rate_window]))',
    help: "guest CPU steal summed over the VM's CPUs, in vCPUs; divided by the flavor's vCPUs for steal_percent",
  },
  vm_busy: {
    kind: 'vm',
    unit: 'vcpus',
    default:
      'sum without (cpu, mode) (rate(node_cpu_seconds_total{mode!~"idle|iowait|steal"}[$rate_window]))',
    help: "guest CPU in use, in vCPUs; divided by the flavor's vCPUs for cpu_percent",
  },
  vm_load5: { kind: 'vm', unit: 'load', default: 'node_load5', help: "the guest's 5-minute load average" },
  vm_resets: {
    kind: 'vm',
    unit: 'count',
    default: 'sum without (cpu, mode) (resets(node_cpu_seconds_total[$rate_window]))',
    help: 'counter resets of the guest CPU counters in the rate window; > 0 makes that step a gap',
  },
  vm_wait: {
    kind: 'vm',
    unit: 'vcpus',
    default: 'sum without (vcpu) (rate(libvirt_domain_vcpu_delay_seconds_total[$rate_window]))',
    help: "host-side wait of the VM's vCPUs for a physical CPU (libvirt exporter), in vCPUs; the steal when the guest reports none",
  },
  vm_wait_resets: {
    kind: 'vm',
    unit: 'count',
    default: 'sum without (vcpu) (resets(libvirt_domain_vcpu_delay_seconds_total[$rate_window]))',
    help: 'counter resets of the host-side wait counters',
  },
  host_cpu: {
    kind: 'host',
    unit: 'percent',
    default: '100 * (1 - avg without (cpu, mode) (rate(node_cpu_seconds_total{mode="idle"}[$rate_window])))',
    help: "the hypervisor's CPU use, in percent",
  },
  host_load5: {
    kind: 'host',
    unit: 'load',
    default: 'node_load5',
    help: "the hypervisor's 5-minute load average",
  },
  host_resets: {
    kind: 'host',
    unit: 'count',
    default: 'sum without (cpu, mode) (resets(node_cpu_seconds_total[$rate_window]))',
    help: "counter resets of the hypervisor's CPU counters",
  },
  host_steal: {
    kind: 'host',
    unit: 'percent',
    default:
      '100 * sum by (instance) (rate(libvirt_domain_vcpu_delay_seconds_total[$rate_window])) / ' +
      '(sum by (instance) (rate(libvirt_domain_vcpu_delay_seconds_total[$rate_window])) + ' +
      'sum by (instance) (rate(libvirt_domain_vcpu_time_seconds_total[$rate_window])))',
    help: "host-side steal: its VMs' vCPU wait as a share of their demand (wait + run), in percent",
  },
} as const satisfies Record<string, QuerySpec>;

export type QueryName = keyof typeof QUERY_SPECS;
export const QUERY_NAMES = Object.keys(QUERY_SPECS) as QueryName[];
