/**
 * How long a plan message may wait on the plan queue for a concurrency slot. The starter returns a
 * message it cannot start yet to the queue (lib/workflow/starter.ts) and shortens its visibility
 * timeout to the wait below, so a freed slot is taken within seconds rather than after the queue's
 * six-minute timeout. SQS counts every receive, so the plan queue gets enough receives for the
 * schedule to outlive the plan's TTL, plus the ordinary budget for real failures; once the plan has
 * expired, the starter starts the message at once and its execution records "plan expired" instead.
 */
import { ConfigError } from '../model/errors.js';

/** SQS's largest maxReceiveCount. */
const SQS_MAX_RECEIVE_COUNT = 1000;

/**
 * The wait schedule: short while a wave is likely to free a slot soon, then longer, so a plan that
 * waits for days still fits SQS's 1000 receives. The cap is the plan queue's own visibility timeout
 * (6 × the starter's 60 s timeout): waiting longer than a failed message would gains nothing.
 */
export const PLAN_WAIT = { firstSeconds: 30, doublingEvery: 10, maxSeconds: 360 } as const;

/** Seconds a message received for the `receiveCount`-th time waits before it is tried again. */
export function planWaitSeconds(receiveCount: number): number {
  const doublings = Math.floor(Math.max(0, receiveCount - 1) / PLAN_WAIT.doublingEvery);
  return Math.min(PLAN_WAIT.maxSeconds, PLAN_WAIT.firstSeconds * 2 ** doublings);
}

/** Receives that find the plan still valid when every one of them waits as planWaitSeconds says. */
function receivesWhileValid(ttlSeconds: number): number {
  let receives = 0;
  for (let waited = 0; waited < ttlSeconds; waited += planWaitSeconds(receives)) receives++;
  return receives;
}

/** Receives the plan queue must allow (its redrive policy's maxReceiveCount). */
export function planQueueMaxReceives(options: {
  planTtlMinutes: number;
  /** The budget every other queue has for real failures (throttles, errors). */
  failureReceives: number;
  /** The plan queue's message retention: a plan may not outlive its messages. */
  retentionSeconds: number;
}): number {
  const { planTtlMinutes, failureReceives, retentionSeconds } = options;
  const ttlSeconds = planTtlMinutes * 60;
  if (ttlSeconds > retentionSeconds) {
    throw new ConfigError(
      `rebalance.plan_ttl_minutes ${planTtlMinutes}: longer than the plan queue keeps messages (${retentionSeconds / 60} minutes)`,
    );
  }
  // A failed receive waits the queue's timeout (≥ any scheduled wait), so it never shortens the
  // time the receives cover; one more receive finds the plan expired.
  const receives = receivesWhileValid(ttlSeconds) + 1 + failureReceives;
  if (receives > SQS_MAX_RECEIVE_COUNT) {
    throw new ConfigError(
      `rebalance.plan_ttl_minutes ${planTtlMinutes}: a message waiting that long needs ${receives} receives, over SQS's ${SQS_MAX_RECEIVE_COUNT}`,
    );
  }
  return receives;
}
