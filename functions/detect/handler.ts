/**
 * The detector Lambda (the reconcile loop): invoked every minute by EventBridge Scheduler (input
 * DETECT_SCHEDULE_INPUT), and on demand by EventBridge events: `Placid Detect Requested`, a
 * CloudWatch `Alarm State Change`, or `Placid Plan Approved` (approves `detail.plan_id`, then
 * reconciles). Keep its timeout under DETECTOR_LEASE_TTL_MS (2 min): a run still going after its
 * lease expired could overlap the next one (sends stay deduplicated, planning would not).
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { type DetectorDeps, parseTrigger, runTriggered } from '../../lib/detector/index.js';
import { systemClock } from '../../lib/model/clock.js';
import { SqsQueue } from '../../lib/queue/sqs.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { lazily } from '../shared/coldStart.js';
import { withPowertools } from '../shared/middleware.js';
import { logger } from '../shared/powertools.js';
import { readDetectEnv } from './env.js';
import { recordRun } from './metrics.js';

// Kept for the container's life: the clients reuse their connections.
const detectorDeps = lazily((): DetectorDeps => {
  const env = readDetectEnv();
  return {
    store: new FleetStore({
      doc: createDocumentClient({ endpoint: env.dynamoEndpoint }),
      tables: env.tables,
      serviceDownTimeSeconds: env.config.DEFAULT.service_down_time,
    }),
    planQueue: new SqsQueue(new SQSClient({}), env.planQueueUrl),
    settings: env.settings,
    config: env.config,
    clock: systemClock,
    logger: {
      info: (msg, attrs) => logger.info(msg, { ...attrs }),
      warn: (msg, attrs) => logger.warn(msg, { ...attrs }),
    },
  };
});

/** The handler's logic with its dependencies passed in (tests use dynalite and a local queue). */
export async function detect(event: unknown, d: DetectorDeps) {
  const trigger = parseTrigger(event);
  logger.appendKeys({ trigger: trigger.kind });
  const run = await runTriggered(trigger, d);
  recordRun(run.result);
  logger.info('detector run', {
    trigger,
    approved: run.approved?.plan_id,
    plan_id: run.result.plan?.plan_id,
    sent: run.result.sent.length,
    expired: run.result.expired,
    idle: run.result.idle,
  });
  return { ...run.result, sent: run.result.sent.map((m) => m.migration_id), approved: run.approved?.plan_id };
}

export const handler = withPowertools(async (event: unknown) => detect(event, await detectorDeps()));
