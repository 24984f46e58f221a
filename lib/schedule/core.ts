/**
 * The schedule stage's one core, shared by its queue consumer, its HTTPS endpoint and
 * `placid schedule --store --claim`: refresh the snapshot, run the engine with store-backed claims,
 * record the decision once per request id, and give back the JSON of `placid schedule --json`.
 */
import type { ScheduleDecision } from '../engine/explain.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { FleetStore } from '../store/fleetStore.js';
import { type ClaimedHost, storeClaim } from './claims.js';
import { ReadOnlyReplicaError, RequestIdConflictError } from './errors.js';
import {
  DECISION_MAX_BYTES,
  type RecordedDecision,
  recordedDecisionJson,
  requestHash,
  type StageDecisionJson,
} from './record.js';
import type { ReleaseSchedulers } from './releases.js';
import type { FleetSnapshot, RefreshStats } from './snapshot.js';

/**
 * What scheduling needs of the store: claims, the decision record, and the store's clock (which
 * stamps the claims and the record).
 */
export type ScheduleStore = Pick<
  FleetStore,
  'claimResources' | 'releaseClaim' | 'putDecision' | 'getDecision' | 'now'
>;

export interface ScheduleDeps {
  store: ScheduleStore;
  /** Module-scope in a Lambda, so it stays warm between invocations. */
  snapshot: FleetSnapshot;
  scheduler: Scheduler;
  /**
   * Advisory decisions: the scheduler of the Nova release a request names (`nova_release`);
   * `scheduler` for every request when unset.
   */
  forRelease?: ReleaseSchedulers;
  /**
   * A replica over tables another deployment writes (`placid serve --replica`): advisory decisions
   * are answered and not recorded, and a request to place is refused (it would claim).
   */
  readOnly?: boolean;
  /** Cap on the recorded decision's JSON (it must fit a DynamoDB item and an SQS reply). */
  maxDecisionBytes?: number;
  /**
   * Advisory decisions only: hand the record's write to this, not started, instead of waiting for
   * it, so the answer goes out first and the write's work (the SDK call, and a local store's own
   * work in this process) comes after it (`placid serve`, which waits for such writes when it
   * stops). A Lambda leaves it unset: it may be frozen as soon as it has answered.
   */
  deferWrite?: (write: () => Promise<unknown>) => void;
  /** Hand the engine's decision to the caller (ScheduleOutcome.engine): `placid schedule --store --claim` prints it. */
  keepEngine?: boolean;
}

export interface ScheduleOutcome {
  request_id: string;
  decided_at: string;
  /** True when the request had been decided before (a redelivery): nothing was placed this time. */
  replayed: boolean;
  /** The JSON of `placid schedule --json`, long lists capped (see `omitted`). */
  decision: StageDecisionJson;
  /** Which host holds each instance's claim; empty for NoValidHost. */
  placements: ClaimedHost[];
  /** Claims lost to concurrent schedulers before the engine found room (0 on replay). */
  claim_conflicts: number;
  /** How the snapshot was brought up to date (absent on replay). */
  refresh?: RefreshStats;
  /**
   * The engine's own decision when it was made by this call and `keepEngine` asked for it, for
   * readable output; the caller releases it.
   */
  engine?: ScheduleDecision;
}

/**
 * Places one request. Idempotent per `spec.request_id`: a request decided before is answered from
 * its record, and of two concurrent deliveries only the first recorded decision counts; the other
 * gives back any claim the recorded decision does not hold.
 *
 * @throws RequestIdConflictError when the request id was decided for a different request.
 * @example
 * const outcome = await scheduleRequest(parseScheduleRequest(JSON.parse(record.body)), { store, snapshot, scheduler });
 * if (outcome.decision.error) console.log('NoValidHost', outcome.decision.error.message);
 */
export async function scheduleRequest(spec: RequestSpec, deps: ScheduleDeps): Promise<ScheduleOutcome> {
  if (deps.readOnly) throw new ReadOnlyReplicaError();
  const hash = requestHash(spec);
  const earlier = await deps.store.getDecision<RecordedDecision>(spec.request_id);
  if (earlier) return replayed(spec.request_id, earlier.decision, hash);

  const { record, engine, made, conflicts, refresh } = await decide(spec, deps, hash);
  // Nothing is released if recording throws: the write may have landed, and a claim that no
  // decision holds only lapses (claimTtlMs), which under-commits rather than overcommits.
  if (await deps.store.putDecision(spec.request_id, record)) {
    // A multi-create that ran out of hosts keeps none of the claims it made (Nova cleans up too).
    await releaseUnheld(deps.store, made, record.placements);
    const kept = deps.keepEngine ? { engine } : {};
    return { ...outcome(spec.request_id, record, false), claim_conflicts: conflicts, refresh, ...kept };
  }
  // A concurrent delivery of the same request recorded first: its decision is the answer.
  const winner = await deps.store.getDecision<RecordedDecision>(spec.request_id);
  if (!winner) throw new Error(`decision ${spec.request_id} was neither recorded nor readable`);
  await releaseUnheld(deps.store, made, winner.decision.placements ?? []);
  return replayed(spec.request_id, winner.decision, hash);
}

/** Refreshes the snapshot and runs the engine with store claims; the decision is not recorded yet. */
async function decide(spec: RequestSpec, deps: ScheduleDeps, hash: string) {
  const refresh = await deps.snapshot.refresh();
  const tracked = storeClaim(deps.store, deps.scheduler.config);
  const now = deps.store.now();
  let engine: ScheduleDecision;
  try {
    engine = await deps.scheduler.schedule(deps.snapshot.fleet, spec, {
      explain: true,
      claim: tracked.claim,
      now,
    });
  } catch (error) {
    // A filter rejected the request after earlier instances were claimed: nothing will hold them.
    await releaseUnheld(deps.store, tracked.made, []);
    throw error;
  }
  const record: RecordedDecision = {
    request_hash: hash,
    decided_at: now.toISOString(),
    placements: engine.placements.map((p) => ({
      host: p.host.host,
      nodename: p.host.nodename,
      instance_uuid: p.instance_uuid,
    })),
    decision: recordedDecisionJson(engine, spec.num_instances, deps.maxDecisionBytes ?? DECISION_MAX_BYTES),
  };
  return { record, engine, made: tracked.made, conflicts: tracked.conflicts(), refresh };
}

function replayed(requestId: string, record: RecordedDecision, hash: string): ScheduleOutcome {
  if (record.request_hash !== hash) throw new RequestIdConflictError(requestId);
  return outcome(requestId, record, true);
}

function outcome(requestId: string, record: RecordedDecision, replay: boolean): ScheduleOutcome {
  return {
    request_id: requestId,
    decided_at: record.decided_at,
    replayed: replay,
    decision: record.decision,
    placements: record.placements,
    claim_conflicts: 0,
  };
}

/** Gives back each claim of this attempt that the recorded decision does not hold. */
async function releaseUnheld(
  store: Pick<ScheduleStore, 'releaseClaim'>,
  made: readonly ClaimedHost[],
  held: readonly ClaimedHost[],
): Promise<void> {
  const keep = new Set(held.map(claimKey));
  const extra = made.filter((c) => !keep.has(claimKey(c)));
  await Promise.all(extra.map((c) => store.releaseClaim(c.host, c.nodename, c.instance_uuid)));
}

const claimKey = (c: ClaimedHost): string => `${c.host}\u0000${c.nodename}\u0000${c.instance_uuid}`;
