/** Everything the AWS-side steps need on Lambda, built once per container and reused by every invocation. */
import { parseJsonConfig, resolveConfig } from '../../lib/config/load.js';
import { defaultConfig } from '../../lib/config/options.js';
import { createScheduler } from '../../lib/engine/registry.js';
import { systemClock } from '../../lib/model/clock.js';
import { withPlacidFilters } from '../../lib/rebalance/filters/index.js';
import { FleetSnapshot } from '../../lib/schedule/snapshot.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { enginePlacementChecker } from '../../lib/workflow/placementCheck.js';
import type { CloudStepDeps } from '../../lib/workflow/ports.js';
import { storeRecorder, storeStealReader } from '../../lib/workflow/records.js';
import { WORKFLOW_ENV, type WorkflowEnv } from './env.js';

export function workflowDeps(env: WorkflowEnv): CloudStepDeps {
  const config = env.schedulerConfig
    ? resolveConfig(
        parseJsonConfig(env.schedulerConfig, WORKFLOW_ENV.schedulerConfig),
        WORKFLOW_ENV.schedulerConfig,
      )
    : defaultConfig();
  const store = new FleetStore({
    doc: createDocumentClient({ endpoint: env.dynamoEndpoint }),
    tables: env.tables,
    serviceDownTimeSeconds: config.DEFAULT.service_down_time,
  });
  return {
    settings: env.settings,
    clock: systemClock,
    leases: store,
    records: storeRecorder(store, env.settings.record_retention_days),
    steal: storeStealReader(store),
    placement: enginePlacementChecker({
      store,
      snapshot: new FleetSnapshot(store),
      scheduler: createScheduler(config, withPlacidFilters()),
      clock: systemClock,
    }),
  };
}
