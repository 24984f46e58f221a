/**
 * What started a detector run: the every-minute schedule, an operator's request, a CloudWatch
 * alarm (e.g. a steal alarm), or an approval. Every one reconciles; an approval first approves.
 * Any other event is refused with an error that lists the shapes accepted.
 */
import { PlacidError } from '../model/errors.js';

export const DETECT_EVENT_SOURCE = 'placid';
export const DETECT_REQUESTED = 'Placid Detect Requested';
export const PLAN_APPROVED = 'Placid Plan Approved';
const ALARM_STATE_CHANGE = 'CloudWatch Alarm State Change';

/** The input the EventBridge Scheduler schedule must send (the time is filled in by the Scheduler). */
export const DETECT_SCHEDULE_INPUT = {
  trigger: 'schedule',
  scheduled_time: '<aws.scheduler.scheduled-time>',
} as const;

export type DetectTrigger =
  | { kind: 'schedule'; scheduledTime?: string }
  | { kind: 'requested' }
  | { kind: 'alarm'; alarm: string; state: string }
  | { kind: 'approved'; planId: string };

export class DetectorEventError extends PlacidError {}

const ACCEPTED = `expected the schedule's input ${JSON.stringify({ trigger: 'schedule' })}, an EventBridge Scheduled Event, or an event with source "${DETECT_EVENT_SOURCE}" and detail-type "${DETECT_REQUESTED}" or "${PLAN_APPROVED}" (detail.plan_id), or a "${ALARM_STATE_CHANGE}" event`;

export function parseTrigger(event: unknown): DetectTrigger {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new DetectorEventError(`detector event is ${describe(event)}; ${ACCEPTED}`);
  }
  const e = event as Record<string, unknown>;
  const detail = (typeof e.detail === 'object' && e.detail !== null ? e.detail : {}) as Record<
    string,
    unknown
  >;
  const type = e['detail-type'];
  if (e.trigger === 'schedule') {
    return {
      kind: 'schedule',
      scheduledTime: typeof e.scheduled_time === 'string' ? e.scheduled_time : undefined,
    };
  }
  if (e.source === 'aws.events' && type === 'Scheduled Event') {
    return { kind: 'schedule', scheduledTime: typeof e.time === 'string' ? e.time : undefined };
  }
  if (e.source === 'aws.cloudwatch' && type === ALARM_STATE_CHANGE) {
    const state = (detail.state as { value?: unknown } | undefined)?.value;
    return {
      kind: 'alarm',
      alarm: String(detail.alarmName ?? 'unnamed alarm'),
      state: String(state ?? 'unknown'),
    };
  }
  if (e.source === DETECT_EVENT_SOURCE && type === DETECT_REQUESTED) return { kind: 'requested' };
  if (e.source === DETECT_EVENT_SOURCE && type === PLAN_APPROVED) {
    const planId = detail.plan_id;
    if (typeof planId !== 'string' || planId.trim() === '') {
      throw new DetectorEventError(
        `"${PLAN_APPROVED}" event: detail.plan_id must be the plan's id, got ${describe(planId)}`,
      );
    }
    return { kind: 'approved', planId };
  }
  const shape = `source ${describe(e.source)}, detail-type ${describe(type)}`;
  throw new DetectorEventError(`detector event not recognised (${shape}); ${ACCEPTED}`);
}

const describe = (v: unknown): string => (v === undefined ? 'missing' : JSON.stringify(v));
