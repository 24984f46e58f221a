import type { SchedulerConfig } from '../../config/options.js';
import type { HostState } from '../../model/hostState.js';
import { allocationRatio } from '../ratios.js';
import { defineBatchWeigher } from './batch.js';
import { configMultiplier } from './multiplier.js';

/** Free vCPUs after overcommit: more is better with a positive multiplier (spreading). */
export const CPUWeigher = defineBatchWeigher({
  name: 'CPUWeigher',
  novaPath: 'nova.scheduler.weights.cpu.CPUWeigher',
  minval: 0,
  weigh: (host, _spec, _state, ctx) => freeVcpus(host, ctx.config),
  weighAll: (hosts, out, _spec, _state, ctx) => {
    for (let i = 0; i < hosts.length; i++) out[i] = freeVcpus(hosts[i], ctx.config);
  },
  ...configMultiplier('cpu_weight_multiplier'),
});

function freeVcpus(host: HostState, config: SchedulerConfig): number {
  return host.vcpus_total * allocationRatio(host, 'cpu', config) - host.vcpus_used;
}
