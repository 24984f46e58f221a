/**
 * What the schedule stage records per request id (and replays on redelivery): the decision JSON of
 * `placid schedule --json`, capped to fit a DynamoDB item and an SQS reply, plus what it claimed.
 */
import { createHash } from 'node:crypto';
import { type DecisionJson, decisionJson } from '../engine/decisionJson.js';
import type { ExplainedTop, ScheduleDecision } from '../engine/explain.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { ClaimedHost } from './claims.js';

/** `placid schedule --json`, with `omitted` saying how many weighed/eliminated hosts were cut. */
export type StageDecisionJson = DecisionJson & { omitted?: { weighed: number; eliminated: number } };

export interface RecordedDecision {
  /** Fingerprint of the request: the same request id sent with a different request is refused. */
  request_hash: string;
  decided_at: string;
  /** The instance → host claims the decision holds. */
  placements: ClaimedHost[];
  decision: StageDecisionJson;
}

/** Rows kept per list at most; the best-weighed hosts and the first eliminations are the useful ones. */
export const DECISION_LIST_LIMIT = 100;
/** Well under SQS's 256 KiB message and DynamoDB's 400 KB item, with room for the envelope. */
export const DECISION_MAX_BYTES = 200_000;

/** The decision as recorded: long lists capped at `listLimit` rows, halved further until it fits `maxBytes`. */
export function recordedDecisionJson(
  decision: ScheduleDecision,
  numInstances: number,
  maxBytes = DECISION_MAX_BYTES,
  listLimit = DECISION_LIST_LIMIT,
): StageDecisionJson {
  let limit = listLimit;
  for (;;) {
    // Cut before rendering: over 10k hosts, building every weighed host and elimination costs
    // more than the engine, so only the rows kept are built.
    const top = explainedTop(decision, limit);
    const capped: StageDecisionJson = decisionJson(
      {
        request_id: decision.request_id,
        placements: decision.placements,
        filter_counts: decision.filter_counts,
        error: decision.error,
        weighed: top.weighed,
        eliminated: () => top.eliminated,
      },
      numInstances,
    );
    const omitted = {
      weighed: Math.max(0, top.weighedTotal - limit),
      eliminated: Math.max(0, top.eliminatedTotal - limit),
    };
    if (omitted.weighed > 0 || omitted.eliminated > 0) capped.omitted = omitted;
    if (limit === 0 || Buffer.byteLength(JSON.stringify(capped), 'utf8') <= maxBytes) return capped;
    limit = Math.floor(limit / 2);
  }
}

/** The decision's own capped view, or one cut from its full lists (a decision built elsewhere). */
function explainedTop(decision: ScheduleDecision, limit: number): ExplainedTop {
  if (decision.explainedTop) return decision.explainedTop(limit);
  const weighed = decision.weighed ?? [];
  const eliminated = decision.eliminated();
  return {
    weighed: weighed.slice(0, limit),
    weighedTotal: weighed.length,
    eliminated: eliminated.slice(0, limit),
    eliminatedTotal: eliminated.length,
  };
}

/** A stable fingerprint of a parsed request (keys sorted, so field order does not matter). */
export function requestHash(spec: RequestSpec): string {
  return createHash('sha256').update(canonicalJson(spec)).digest('hex').slice(0, 32);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
