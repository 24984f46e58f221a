/**
 * The events that run the detector, as the stack routes them: the names and the schedule's input
 * come from the detector itself (lib/detector/trigger.ts parses exactly these).
 */
import {
  DETECT_EVENT_SOURCE,
  DETECT_REQUESTED,
  DETECT_SCHEDULE_INPUT,
  PLAN_APPROVED,
} from '../detector/trigger.js';

export const DETECT_EVENTS = {
  /** Placid's own events on the default bus (`aws events put-events`, `placid approve`). */
  source: DETECT_EVENT_SOURCE,
  detectRequested: DETECT_REQUESTED,
  /** detail: `{"plan_id": "..."}` */
  planApproved: PLAN_APPROVED,
  /** CloudWatch's event for an alarm changing state. */
  alarmStateChange: 'CloudWatch Alarm State Change',
} as const;

/** What EventBridge Scheduler sends each minute; Scheduler fills in the tick's time. */
export const SCHEDULED_DETECT_INPUT = DETECT_SCHEDULE_INPUT;
