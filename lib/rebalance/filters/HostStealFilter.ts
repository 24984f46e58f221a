import { defineFilter, PASS, PASS_ALL, reject } from '../../engine/filter.js';
import { type MoveContext, moveContextOf } from '../moveContext.js';
import { predictedStealPercent } from '../stealModel.js';

const CONTENDED = reject<MoveContext>(
  () =>
    'host was contended or had suffering VMs at detection: the plan relieves it and does not move VMs onto it',
);
const STEAL_UNKNOWN = reject<MoveContext>(
  () => 'host steal is unknown (no usable samples from it or its VMs)',
);
const TOO_MUCH_STEAL = reject<MoveContext>((host, _spec, move) => {
  // Only rejected hosts get here, and they have a load (STEAL_UNKNOWN covers the others).
  const load = move.fleet.load(host.host) ?? { demandVcpus: 0, capacityVcpus: 0 };
  const demand = load.demandVcpus + move.vm.demandVcpus;
  const after = predictedStealPercent(demand, load.capacityVcpus);
  return (
    `predicted steal ${after.toFixed(1)}% after the move (demand ${demand.toFixed(1)} of ` +
    `${load.capacityVcpus.toFixed(1)} vCPUs it can deliver), above host_steal_threshold_percent ${move.limits.hostStealThresholdPercent}%`
  );
});

/**
 * Placid's rebalancer: passes hosts whose CPU steal, predicted by the proportional-share model
 * after the VM's demand arrives (and after the moves planned before it), stays at or below
 * `[rebalance] host_steal_threshold_percent`, so a move never makes a new contended host. Hosts
 * contended or with suffering VMs at detection fail (the plan relieves them, it does not fill
 * them), and so do hosts whose steal is unknown (no usable samples from them or their VMs). Other
 * requests pass.
 */
export const HostStealFilter = defineFilter<MoveContext>({
  name: 'HostStealFilter',
  prepare: (spec) => moveContextOf(spec) ?? PASS_ALL,
  check: (host, _spec, move) => {
    if (move.fleet.contended(host.host)) return CONTENDED;
    const load = move.fleet.load(host.host);
    if (load === undefined) return STEAL_UNKNOWN;
    const after = predictedStealPercent(load.demandVcpus + move.vm.demandVcpus, load.capacityVcpus);
    return after <= move.limits.hostStealThresholdPercent ? PASS : TOO_MUCH_STEAL;
  },
});
