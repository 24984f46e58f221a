/**
 * A migration nobody planned: `placid migrate --instance UUID --to HOST`. Its plan message is built
 * from the instance's stored report (source host, flavor, Kubernetes node, Consul agent) and the
 * cost model's estimate, so it runs through exactly the workflow a planned one does.
 */
import { randomUUID } from 'node:crypto';
import { RequestError } from '../model/errors.js';
import { type MigrationInput, parseMigrationInput } from '../model/migration.js';
import type { InstanceReport } from '../model/reports.js';
import { migrationCost } from '../rebalance/cost.js';
import type { RebalanceSettings } from '../rebalance/settings.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { StoredInstance } from '../store/instances.js';

/** How long an ad-hoc plan stays valid: long enough to get leases, short enough to mean "now". */
const AD_HOC_PLAN_TTL_MS = 30 * 60_000;

export interface AdHocMigration {
  migration: MigrationInput;
  instance: StoredInstance & InstanceReport;
}

export async function adHocMigration(
  store: Pick<FleetStore, 'getInstance' | 'getHost'>,
  request: { instanceUuid: string; dest: string; now: Date; cost: RebalanceSettings },
): Promise<AdHocMigration> {
  // StoredInstance is the report minus its samples; Omit over the report's index signature loses the field types.
  const instance = (await store.getInstance(request.instanceUuid)) as InstanceReport | undefined;
  if (!instance) {
    throw new RequestError(
      `instance ${request.instanceUuid} has no report in the local store: ingest one first (placid ingest FILE)`,
    );
  }
  if (instance.host === request.dest) {
    // Also what makes a finished `placid migrate` safe to repeat: the store moved the VM already.
    throw new RequestError(`instance ${instance.uuid} is already on ${request.dest}: nothing to migrate`);
  }
  if (!(await store.getHost(request.dest))) {
    throw new RequestError(
      `destination ${request.dest} is not a compute host the local store knows: name one that reports (placid fleet lists them)`,
    );
  }
  const cost = migrationCost(instance, request.cost);
  const id = `adhoc-${request.instanceUuid.slice(0, 8)}-${randomUUID().slice(0, 8)}`;
  const migration = parseMigrationInput(
    {
      migration_id: id,
      plan_id: id,
      plan_expires_at: new Date(request.now.getTime() + AD_HOC_PLAN_TTL_MS).toISOString(),
      instance_uuid: instance.uuid,
      source_host: instance.host,
      dest_host: request.dest,
      estimated_bytes: cost.bytes,
      estimated_seconds: Math.max(1, cost.seconds),
      kubernetes_node: instance.kubernetes_node,
      kubernetes_cluster: instance.kubernetes_cluster,
      consul: instance.consul,
      correlation_id: id,
    },
    `migration of ${instance.uuid}`,
  );
  return { migration, instance };
}
