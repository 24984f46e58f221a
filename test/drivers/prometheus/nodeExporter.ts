/**
 * node_exporter-format series for synthetic machines: per-CPU `node_cpu_seconds_total` counters
 * that advance at fixed rates, `node_load5`, and optionally libvirt's per-vCPU delay (what a
 * hypervisor-side exporter reports as a VM's wait for a physical CPU).
 */

export interface SyntheticMachine {
  cpus: number;
  /** CPU-seconds per second of each mode, per CPU (e.g. steal 0.1 = 10 % of each CPU stolen). */
  rates: { user: number; system: number; steal: number };
  load5: number;
  /** The counters restart from zero at this many seconds (a reboot). */
  resetAtSeconds?: number;
}

/** libvirt per-vCPU delay of the VMs on a hypervisor: uuid, vCPUs and delay rate per vCPU. */
export interface DomainDelay {
  uuid: string;
  vcpus: number;
  delayPerVcpu: number;
  /** Time each vCPU ran on a physical CPU, per second. */
  runPerVcpu: number;
}

/** The exposition text of one machine at `elapsed` seconds. */
export function nodeExporterText(machine: SyntheticMachine, elapsed: number): string {
  const resetAt = machine.resetAtSeconds;
  const since = resetAt !== undefined && elapsed >= resetAt ? elapsed - resetAt : elapsed;
  // Counters start high, as on a machine that has run for a while, so a reset is a real drop.
  const base = resetAt !== undefined && elapsed >= resetAt ? 0 : 1000;
  const lines = ['# TYPE node_cpu_seconds_total counter'];
  const busy = machine.rates.user + machine.rates.system + machine.rates.steal;
  const modes: [string, number][] = [
    ['user', machine.rates.user],
    ['system', machine.rates.system],
    ['steal', machine.rates.steal],
    ['idle', Math.max(0, 1 - busy)],
  ];
  for (let cpu = 0; cpu < machine.cpus; cpu++) {
    for (const [mode, rate] of modes) {
      lines.push(`node_cpu_seconds_total{cpu="${cpu}",mode="${mode}"} ${(base + rate * since).toFixed(3)}`);
    }
  }
  lines.push('# TYPE node_load5 gauge', `node_load5 ${machine.load5}`);
  return `${lines.join('\n')}\n`;
}

/** libvirt's per-vCPU delay and run-time counters of each VM. */
export function libvirtText(domains: readonly DomainDelay[], elapsed: number): string {
  const lines: string[] = [];
  const counters: [string, (d: DomainDelay) => number][] = [
    ['libvirt_domain_vcpu_delay_seconds_total', (d) => d.delayPerVcpu],
    ['libvirt_domain_vcpu_time_seconds_total', (d) => d.runPerVcpu],
  ];
  for (const [name, rate] of counters) {
    lines.push(`# TYPE ${name} counter`);
    for (const d of domains) {
      for (let vcpu = 0; vcpu < d.vcpus; vcpu++) {
        lines.push(`${name}{uuid="${d.uuid}",vcpu="${vcpu}"} ${(500 + rate(d) * elapsed).toFixed(3)}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
