/** The schedule stage's public API: snapshot, core, request parsing and the recorded decision. */

export {
  type AdvisoryAnswer,
  type AdvisoryOutcome,
  type AdvisoryRecord,
  adviseAmong,
  adviseRequest,
  type CandidateRef,
  type CandidateVerdict,
} from './advisory.js';
export { type ClaimedHost, claimRequestFor, storeClaim, type TrackedClaim } from './claims.js';
export { type ScheduleDeps, type ScheduleOutcome, type ScheduleStore, scheduleRequest } from './core.js';
export { RequestIdConflictError } from './errors.js';
export {
  DECISION_LIST_LIMIT,
  DECISION_MAX_BYTES,
  type RecordedDecision,
  recordedDecisionJson,
  requestHash,
  type StageDecisionJson,
} from './record.js';
export {
  type DecisionRequest,
  MAX_CANDIDATES,
  MAX_REQUEST_ID_LENGTH,
  parseDecisionBody,
  parseDecisionRequest,
  parseScheduleBody,
  parseScheduleRequest,
} from './request.js';
export {
  FleetSnapshot,
  type RefreshStats,
  type SnapshotOptions,
  type SnapshotSource,
} from './snapshot.js';
