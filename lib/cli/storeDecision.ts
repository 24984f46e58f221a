/**
 * `placid schedule --store`: the same explained decision, over the fleet stored by `placid ingest`
 * (the local dynalite under --data-dir) instead of a hosts file. With `--claim` the request goes
 * through the schedule stage's core: resources are claimed in the store and the decision recorded.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { SchedulerConfig } from '../config/options.js';
import { createScheduler, loadPluginModules } from '../engine/registry.js';
import { defaultDataDir } from '../local/dynalite.js';
import { LocalPipeline } from '../local/pipeline.js';
import { parseRequestSpec } from '../model/requestSchema.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { withPlacidFilters } from '../rebalance/filters/index.js';
import { type ScheduleOutcome, scheduleRequest } from '../schedule/core.js';
import { FleetSnapshot } from '../schedule/snapshot.js';
import type { Decided } from './decide.js';
import { InputError } from './errors.js';
import { readConfig, readJsonFile } from './inputs.js';

export interface StoreDecisionInputs {
  request: string;
  config?: string;
  /** The local store's directory; defaultDataDir() when absent (where `placid ingest` writes). */
  dataDir?: string;
  /** Claim and record, as the schedule stage does, instead of only explaining. */
  claim?: boolean;
}

export interface StoreDecided {
  /** The engine's decision (absent when --claim replays a request decided before). */
  decided?: Decided;
  /** What the schedule stage's core did (only with --claim). */
  outcome?: ScheduleOutcome;
  dataDir: string;
}

/** Reads the stored fleet and explains (or, with `claim`, makes) one placement. */
export async function decideFromStore(inputs: StoreDecisionInputs): Promise<StoreDecided> {
  const { config, baseDir } = await readConfig(inputs.config);
  const spec = await readStoreRequest(inputs.request, inputs.claim ?? false);
  const scheduler = createScheduler(config, withPlacidFilters(await loadPluginModules(config, baseDir)));
  const dataDir = inputs.dataDir ?? defaultDataDir();
  // Like the other store commands: a mistyped --data-dir must not quietly become an empty store.
  if (!existsSync(dataDir)) {
    throw new InputError(
      `no local fleet store at ${dataDir}: run \`placid ingest FILE\` first, or pass --data-dir`,
    );
  }
  const pipeline = await LocalPipeline.start({ dataDir, stages: [] });
  try {
    const snapshot = new FleetSnapshot(pipeline.store);
    if (inputs.claim) {
      const deps = { store: pipeline.store, snapshot, scheduler, keepEngine: true };
      const outcome = await scheduleRequest(spec, deps);
      const decided = outcome.engine && withDecision(config, snapshot, spec, outcome.engine);
      return { decided, outcome, dataDir };
    }
    await snapshot.refresh();
    const decision = await scheduler.schedule(snapshot.fleet, spec, { explain: true });
    return { decided: withDecision(config, snapshot, spec, decision), dataDir };
  } finally {
    await pipeline.close();
  }
}

/**
 * REQUEST.json. A claimed request without a `request_id` gets a fresh one: the id is what makes a
 * repeated run replay its recorded decision, so only a caller who chose one should get a replay.
 */
async function readStoreRequest(path: string, claim: boolean): Promise<RequestSpec> {
  const doc = await readJsonFile(path, 'request');
  const needsId = claim && typeof doc === 'object' && doc !== null && !('request_id' in doc);
  return parseRequestSpec(needsId ? { ...doc, request_id: randomUUID() } : doc, path);
}

function withDecision(
  config: SchedulerConfig,
  snapshot: FleetSnapshot,
  spec: RequestSpec,
  decision: Decided['decision'],
): Decided {
  return { config, hosts: [...snapshot.fleet.hosts], spec, decision };
}
