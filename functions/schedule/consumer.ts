/**
 * The schedule stage's queue consumer: each record is one request; its decision is recorded and sent
 * to the reply queue. Malformed requests go to the dead-letter queue with their reason; a transient
 * failure leaves only its own record for SQS to redeliver, and the redelivery replays the recorded
 * decision, so a reply may repeat but a placement never does.
 */
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { isPermanentFailure } from '../../lib/model/failure.js';
import type { MessageAttributes } from '../../lib/queue/port.js';
import { processSqsBatch } from '../../lib/queue/processBatch.js';
import { type AdvisoryAnswer, adviseRequest } from '../../lib/schedule/advisory.js';
import { type ScheduleOutcome, scheduleRequest } from '../../lib/schedule/core.js';
import { parseDecisionBody } from '../../lib/schedule/request.js';
import { CORRELATION_ID_ATTRIBUTE } from '../shared/correlation.js';
import { withPowertools } from '../shared/middleware.js';
import { logger, recordBatchCounts } from '../shared/powertools.js';
import { recordAdvisoryMetrics, recordDecisionMetrics } from './metrics.js';
import type { QueueStage } from './stage.js';

/** The reply attribute that names the request a decision answers. */
export const REQUEST_ID_ATTRIBUTE = 'placid-request-id';

/**
 * The body of a reply: which request, when it was decided, and the JSON of `placid schedule --json`
 * (for an advisory request: the verdicts, with `advisory: true`).
 */
export interface ScheduleReply {
  request_id: string;
  decided_at: string;
  replayed: boolean;
  decision: ScheduleOutcome['decision'] | AdvisoryAnswer;
}

/**
 * The SQS-triggered handler over `stages`: the stage, or how to build it on first use (the
 * Lambda's queueHandler.ts: `lazily(() => queueStageFromEnv())`).
 * @example export const handler = createQueueHandler(lazily(() => queueStageFromEnv()));
 */
export function createQueueHandler(stages: QueueStage | (() => Promise<QueueStage>)) {
  return withPowertools(async (event: SQSEvent) => {
    const stage = typeof stages === 'function' ? await stages() : stages;
    const outcome = await processSqsBatch(event, {
      parse: (body, record) => parseDecisionBody(body, `schedule request ${record.messageId}`),
      handle: async ({ spec, candidates, ...options }, record) => {
        if (candidates) {
          const advised = await adviseRequest(spec, candidates, stage.deps, options);
          const { request_id, decided_at } = advised.answer;
          const reply: ScheduleReply = { request_id, decided_at, replayed: false, decision: advised.answer };
          await stage.replies.send(JSON.stringify(reply), replyAttributes(request_id, record));
          recordAdvisoryMetrics(advised);
          return;
        }
        const decided = await scheduleRequest(spec, stage.deps);
        await stage.replies.send(
          JSON.stringify(replyOf(decided)),
          replyAttributes(decided.request_id, record),
        );
        recordDecisionMetrics(decided);
      },
      deadLetter: stage.deadLetter,
      // a request that can never succeed (bad input, refused, reused id): one rule, lib/queue/failure.ts
      isPoison: isPermanentFailure,
      logger,
    });
    recordBatchCounts(outcome.counts);
    return outcome.response;
  });
}

function replyOf(outcome: ScheduleOutcome): ScheduleReply {
  const { request_id, decided_at, replayed, decision } = outcome;
  return { request_id, decided_at, replayed, decision };
}

function replyAttributes(requestId: string, record: SQSRecord): MessageAttributes {
  const attributes: MessageAttributes = { [REQUEST_ID_ATTRIBUTE]: requestId };
  const correlationId = record.messageAttributes?.[CORRELATION_ID_ATTRIBUTE]?.stringValue;
  if (correlationId) attributes[CORRELATION_ID_ATTRIBUTE] = correlationId;
  return attributes;
}
