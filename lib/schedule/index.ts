/** The schedule stage's public API: snapshot, core, request parsing and the recorded decision. */
export { type ClaimedHost, claimRequestFor, storeClaim, type TrackedClaim } from './claims.js';
export { type ScheduleDeps, type ScheduleOutcome, scheduleRequest } from './core.js';
export { RequestIdConflictError } from './errors.js';
export {
  DECISION_LIST_LIMIT,
  DECISION_MAX_BYTES,
  type RecordedDecision,
  recordedDecisionJson,
  requestHash,
  type StageDecisionJson,
} from './record.js';
export { MAX_REQUEST_ID_LENGTH, parseScheduleBody, parseScheduleRequest } from './request.js';
export {
  FleetSnapshot,
  type RefreshStats,
  type SnapshotOptions,
  type SnapshotSource,
} from './snapshot.js';
export { isTransient } from './transient.js';
