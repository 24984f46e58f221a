/**
 * Step 3: take the VM out of service. Consul first (no new traffic is routed to it), then
 * Kubernetes: cordon and evict through the Eviction API (PDBs honoured and retried by the driver up
 * to the drain deadline), as `kubectl drain --ignore-daemonsets --delete-emptydir-data [--force]`.
 * Only the node and agent the re-check found (targets.ts) are touched; either is skipped when the
 * VM has none. Both calls are idempotent, so a retry after a partial
 * effect (cordoned, then the Lambda died) simply carries on.
 */
import type { AgentStepDeps } from '../ports.js';
import { maintenanceReason } from '../reasons.js';
import type { DrainResult, WorkflowState } from '../state.js';
import { guarded } from '../translate.js';

export async function drain(state: WorkflowState, deps: AgentStepDeps): Promise<DrainResult> {
  const { migration } = state;
  const targets = state.recheck?.targets;
  const result: DrainResult = { kubernetes: null, consul: null };
  // The marks name the migration and the time, so the agent's cleanup can undo a leftover.
  const at = new Date(deps.clock.now());
  if (targets?.consul) {
    const agent = targets.consul;
    const maintenance = await deps.maintenance();
    const enabled = await guarded(`enable maintenance on Consul node ${agent.node}`, () =>
      maintenance.enable(agent, maintenanceReason(migration, at)),
    );
    result.consul = { node: agent.node, outcome: enabled.outcome };
  }
  if (targets?.kubernetes) {
    const { node, cluster } = targets.kubernetes;
    const drainer = await guarded('pick the Kubernetes cluster', () => deps.drainer(cluster));
    const { settings } = deps;
    const drained = await guarded(`drain Kubernetes node ${node}`, () =>
      drainer.drain(node, {
        force: settings.drain_force,
        timeoutMs: settings.drain_timeout_seconds * 1000,
        gracePeriodSeconds: settings.drain_grace_period_seconds,
        signal: deps.signal,
        mark: { migrationId: migration.migration_id, at },
      }),
    );
    result.kubernetes = {
      node,
      evicted: drained.evicted.length + drained.alreadyGone.length,
      skipped: drained.skipped.length,
      warnings: drained.warnings,
    };
  }
  return result;
}
