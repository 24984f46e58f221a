/**
 * The schedule stage's synchronous endpoint (a Lambda Function URL; IAM auth is the URL's own
 * setting). POST a request spec with its `request_id`; the answer is the JSON of
 * `placid schedule --json`. With `advisory: true` and `candidates`, the answer is each candidate's
 * verdict and weight (an AdvisoryAnswer), always 200: nothing is claimed. Status codes:
 * - 200 placed or advised; 409 NoValidHost (the body is still the full decision, with `error`);
 * - 400 malformed request (or a request to place sent to a read-only replica); 405 not a POST;
 * - 409 `RequestIdConflict`: the request id was already decided for a different request;
 * - 503 DynamoDB throttled or unavailable: retry the same request (it is idempotent) after Retry-After;
 * - 500 anything else (a bug or a broken configuration; logged, details not exposed).
 *
 * Why not middy's http middlewares (http-json-body-parser, http-error-handler): the body is parsed by
 * the same parser as the queue's messages (parseDecisionBody, one error wording for both entry
 * points), and the error mapping follows our typed errors' own `retryable` and conflict kinds, with
 * Retry-After on a 503; http-error-handler only maps `http-errors` instances, so it would need every
 * error rewrapped first: a second classification beside lib/model/failure.ts. The method check is
 * the four lines below.
 */
import type { LambdaFunctionURLEvent, LambdaFunctionURLResult } from 'aws-lambda';
import { RequestError, ValidationError } from '../../lib/model/errors.js';
import { isRetryable } from '../../lib/model/failure.js';
import { wellFormedText } from '../../lib/model/identifiers.js';
import { type AdvisoryOutcome, adviseRequest } from '../../lib/schedule/advisory.js';
import { cappedAnswerJson } from '../../lib/schedule/answerCap.js';
import { type ScheduleDeps, type ScheduleOutcome, scheduleRequest } from '../../lib/schedule/core.js';
import { RequestIdConflictError } from '../../lib/schedule/errors.js';
import { parseDecisionBody } from '../../lib/schedule/request.js';
import { withPowertools } from '../shared/middleware.js';
import { logger } from '../shared/powertools.js';
import { recordAdvisoryMetrics, recordDecisionMetrics, recordRefusal } from './metrics.js';

type Result = Exclude<LambdaFunctionURLResult, string>;

/** Seconds a client should wait before retrying after a 503. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The Function URL handler over `stage`: the deps, or how to build them on first use (the Lambda's
 * urlHandler.ts: `lazily(() => urlStageFromEnv())`).
 * @example export const handler = createUrlHandler(lazily(() => urlStageFromEnv()));
 */
export function createUrlHandler(stage: ScheduleDeps | (() => Promise<ScheduleDeps>)) {
  return withPowertools(async (event: LambdaFunctionURLEvent): Promise<Result> => {
    const deps = typeof stage === 'function' ? await stage() : stage;
    const method = event.requestContext?.http?.method;
    if (method !== 'POST') {
      recordRefusal(405);
      return json(405, problem('MethodNotAllowed', `use POST with a JSON request spec, not ${method}`), {
        allow: 'POST',
      });
    }
    try {
      const { spec, candidates, ...options } = parseDecisionBody(bodyText(event), 'request body');
      if (candidates) {
        const advised = await adviseRequest(spec, candidates, deps, options);
        recordAdvisoryMetrics(advised);
        return advice(advised);
      }
      const outcome = await scheduleRequest(spec, deps);
      recordDecisionMetrics(outcome);
      return decided(outcome);
    } catch (error) {
      return failed(error);
    }
  });
}

function bodyText(event: LambdaFunctionURLEvent): string {
  const raw = event.body ?? '';
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (text.trim() === '') {
    throw new ValidationError('request body', [
      { path: '', message: 'is empty; POST a JSON request spec with a request_id' },
    ]);
  }
  return text;
}

function decided(outcome: ScheduleOutcome): Result {
  const status = outcome.decision.error ? 409 : 200;
  return json(status, outcome.decision, {
    // Request ids are validated at parse time; a header must still never carry CR/LF, whatever a
    // record stored before that check says.
    'x-placid-request-id': headerId(outcome.request_id),
    'x-placid-replayed': String(outcome.replayed),
  });
}

function advice(outcome: AdvisoryOutcome): Result {
  return json(200, cappedAnswerJson(outcome.answer), {
    'x-placid-request-id': headerId(outcome.answer.request_id),
    'x-placid-advisory': 'true',
  });
}

/**
 * The request id as a header value: percent-encoded (decodeURIComponent gives it back), since a
 * header holds Latin-1 at most and a request id is any Unicode (`req-€1` once made every answer,
 * and every replay of it, a 500 after its claim was made). Plain ASCII ids without `%` read as they are.
 */
function headerId(requestId: string): string {
  return /^[\x21-\x24\x26-\x7e]*$/.test(requestId)
    ? requestId
    : encodeURIComponent(wellFormedText(requestId));
}

function failed(error: unknown): Result {
  const result = failure(error);
  recordRefusal(result.statusCode ?? 500);
  return result;
}

function failure(error: unknown): Result {
  if (error instanceof ValidationError) {
    return json(400, { error: { type: 'ValidationError', message: error.message, issues: error.issues } });
  }
  if (error instanceof RequestError) return json(400, problem('RequestError', error.message));
  if (error instanceof RequestIdConflictError) return json(409, problem('RequestIdConflict', error.message));
  if (isRetryable(error)) {
    logger.warn('schedule request failed transiently', { error });
    return json(
      503,
      problem('ServiceUnavailable', 'the fleet store is busy or unreachable; retry the request'),
      {
        'retry-after': String(RETRY_AFTER_SECONDS),
      },
    );
  }
  logger.error('schedule request failed', { error });
  return json(500, problem('InternalError', 'the request could not be scheduled; see the function logs'));
}

function problem(type: string, message: string) {
  return { error: { type, message } };
}

/** A JSON response; `body` as it is when it is JSON text already. */
function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): Result {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}
