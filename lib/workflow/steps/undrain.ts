/**
 * Step 6: put the VM back in service: uncordon (unless it was cordoned before Placid came) and
 * disable Consul maintenance (only when the recorded reason names this migration: someone else's
 * maintenance is left alone). Uncordoning also removes the node's Placid mark. Idempotent and tolerant of an already-undrained node.
 */
import type { AgentStepDeps } from '../ports.js';
import { reasonMark } from '../reasons.js';
import type { UndrainResult, WorkflowState } from '../state.js';
import { guarded } from '../translate.js';

export async function undrain(state: WorkflowState, deps: AgentStepDeps): Promise<UndrainResult> {
  return {
    kubernetes: await uncordonNode(state, deps),
    consul: await endMaintenance(state, deps),
  };
}

export async function uncordonNode(
  state: WorkflowState,
  deps: AgentStepDeps,
): Promise<UndrainResult['kubernetes']> {
  // The drain only ever runs after the re-check, on the node it found: without one, nothing was touched.
  if (!state.recheck) return state.migration.kubernetes_node ? 'untouched' : null;
  const target = state.recheck.targets.kubernetes;
  if (!target) return null;
  const { node, cluster } = target;
  // Cordoned before the drain: an operator's doing, theirs to undo.
  if (state.recheck.pre.cordoned !== false) return 'left-cordoned';
  const drainer = await guarded('pick the Kubernetes cluster', () => deps.drainer(cluster));
  return guarded(`uncordon Kubernetes node ${node}`, () => drainer.uncordon(node));
}

export async function endMaintenance(
  state: WorkflowState,
  deps: AgentStepDeps,
): Promise<UndrainResult['consul']> {
  const agent = state.recheck?.targets.consul;
  if (!agent) return null;
  const maintenance = await deps.maintenance();
  const status = await guarded(`read maintenance of Consul node ${agent.node}`, () =>
    maintenance.status(agent),
  );
  if (!status.enabled) return 'already-disabled';
  if (reasonMark(status.reason)?.migrationId !== state.migration.migration_id) return 'left-enabled';
  return guarded(`disable maintenance on Consul node ${agent.node}`, () => maintenance.disable(agent));
}
