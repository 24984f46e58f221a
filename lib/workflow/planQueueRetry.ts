/**
 * How long a plan message may wait on the plan queue for a concurrency slot. The starter returns a
 * message it cannot start yet to the queue (lib/workflow/starter.ts), and SQS counts every receive:
 * with the ordinary budget (5 receives × 6 minutes) a message of a 60-minute plan would reach the
 * dead-letter queue while the plan is still valid. So the plan queue gets enough receives to outlive
 * the plan's TTL, plus the ordinary budget for real failures; once the plan has expired, the
 * starter starts the message at once and its execution records "plan expired" instead.
 */
import { ConfigError } from '../model/errors.js';

/** SQS's largest maxReceiveCount. */
const SQS_MAX_RECEIVE_COUNT = 1000;

/** Receives the plan queue must allow (its redrive policy's maxReceiveCount). */
export function planQueueMaxReceives(options: {
  planTtlMinutes: number;
  visibilityTimeoutSeconds: number;
  /** The budget every other queue has for real failures (throttles, errors). */
  failureReceives: number;
  /** The plan queue's message retention: a plan may not outlive its messages. */
  retentionSeconds: number;
}): number {
  const { planTtlMinutes, visibilityTimeoutSeconds, failureReceives, retentionSeconds } = options;
  const ttlSeconds = planTtlMinutes * 60;
  if (ttlSeconds > retentionSeconds) {
    throw new ConfigError(
      `rebalance.plan_ttl_minutes ${planTtlMinutes}: longer than the plan queue keeps messages (${retentionSeconds / 60} minutes)`,
    );
  }
  // One receive per visibility timeout while it waits, one more that finds the plan expired.
  const waiting = Math.ceil(ttlSeconds / visibilityTimeoutSeconds) + 1;
  const receives = waiting + failureReceives;
  if (receives > SQS_MAX_RECEIVE_COUNT) {
    throw new ConfigError(
      `rebalance.plan_ttl_minutes ${planTtlMinutes}: a message waiting that long needs ${receives} receives, over SQS's ${SQS_MAX_RECEIVE_COUNT}`,
    );
  }
  return receives;
}
