import { type MoveContext, moveContextOf } from '../../rebalance/moveContext.js';
import { predictedStealPercent } from '../../rebalance/stealModel.js';
import { defineFilter, PASS_ALL } from '../filter.js';

/**
 * Placid's rebalancer: passes hosts whose CPU steal, predicted by the proportional-share model
 * after the VM's demand arrives (and after the moves planned before it), stays at or below
 * `[rebalance] host_steal_threshold_percent`, so a move never makes a new contended host. Hosts
 * contended or with suffering VMs at detection fail (the plan relieves them, it does not fill
 * them), and so do hosts
 * whose steal is unknown (no usable samples from them or their VMs). Other requests pass.
 */
export const HostStealFilter = defineFilter<MoveContext>({
  name: 'HostStealFilter',
  prepare: (spec) => moveContextOf(spec) ?? PASS_ALL,
  hostPasses: (host, _spec, move) => {
    if (move.fleet.contended(host.host)) return false;
    const load = move.fleet.load(host.host);
    if (load === undefined) return false;
    const after = predictedStealPercent(load.demandVcpus + move.vm.demandVcpus, load.capacityVcpus);
    return after <= move.limits.hostStealThresholdPercent;
  },
  explain: (host, _spec, move) => {
    const limit = `host_steal_threshold_percent ${move.limits.hostStealThresholdPercent}%`;
    if (move.fleet.contended(host.host)) {
      return 'host was contended or had suffering VMs at detection: the plan relieves it and does not move VMs onto it';
    }
    const load = move.fleet.load(host.host);
    if (load === undefined) return 'host steal is unknown (no usable samples from it or its VMs)';
    const demand = load.demandVcpus + move.vm.demandVcpus;
    const after = predictedStealPercent(demand, load.capacityVcpus);
    return (
      `predicted steal ${after.toFixed(1)}% after the move (demand ${demand.toFixed(1)} of ` +
      `${load.capacityVcpus.toFixed(1)} vCPUs it can deliver), above ${limit}`
    );
  },
});
