/**
 * The re-check's placement test: would the engine still put this VM on the destination, with
 * fresh host states? It asks the way Nova does for a live migration to a named host (the scheduler
 * runs with `requested_destination`), so every enabled filter is applied to that one host.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { Clock } from '../model/clock.js';
import type { MigrationInput } from '../model/migration.js';
import { parseRequestSpec } from '../model/requestSchema.js';
import type { FleetSnapshot } from '../schedule/snapshot.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { PlacementChecker, PlacementVerdict } from './ports.js';

export interface EngineCheckDeps {
  store: Pick<FleetStore, 'getInstance'>;
  snapshot: Pick<FleetSnapshot, 'refresh' | 'fleet'>;
  scheduler: Scheduler;
  clock: Pick<Clock, 'now'>;
}

export function enginePlacementChecker(deps: EngineCheckDeps): PlacementChecker {
  return {
    async check(migration: MigrationInput): Promise<PlacementVerdict> {
      const uuid = migration.instance_uuid;
      const instance = await deps.store.getInstance(uuid);
      // Fail closed: without the VM's flavor nothing can be checked.
      if (!instance) return { passes: false, reason: `the store has no report of instance ${uuid}` };
      await deps.snapshot.refresh();
      const spec = parseRequestSpec(
        {
          request_id: `recheck-${migration.migration_id}`,
          flavor: instance.flavor,
          availability_zone: instance.availability_zone,
          instance_uuid: uuid,
          requested_destination: { host: migration.dest_host },
        },
        `placement re-check of ${uuid}`,
      );
      const decision = await deps.scheduler.schedule(deps.snapshot.fleet, spec, {
        explain: true,
        now: new Date(deps.clock.now()),
      });
      const passes = decision.placements.some((p) => p.host.host === migration.dest_host);
      const why = passes
        ? []
        : decision
            .eliminated()
            .filter((e) => e.host === migration.dest_host)
            .map((e) => `${e.filter}: ${e.reason}`);
      if (passes) return { passes: true, reason: `${migration.dest_host} passes every enabled filter` };
      return { passes: false, reason: why.join('; ') || decision.error?.message || 'no placement' };
    },
  };
}

/** For callers with no fleet state to check against (the simulation, `placid migrate` on request). */
export const trustThePlan: PlacementChecker = {
  check: async () => ({ passes: true, reason: 'placement not re-checked (no fleet state available)' }),
};
