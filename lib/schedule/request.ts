/** Schedule requests as the stage receives them: a request spec document that must carry its request id. */
import { type Issue, ValidationError } from '../model/errors.js';
import { MAX_IDENTIFIER_LENGTH } from '../model/identifiers.js';
import { parseRequestSpec } from '../model/requestSchema.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { parseJsonBody } from '../queue/jsonBody.js';

/**
 * DynamoDB keys may be longer; a longer id is almost certainly not an id. The id schema
 * (lib/model/identifiers.ts) also refuses control characters and lone surrogates: the id becomes a
 * store key, an SQS reply attribute and an HTTP header, and must be valid in all three.
 */
export const MAX_REQUEST_ID_LENGTH = MAX_IDENTIFIER_LENGTH;

/**
 * Validates a request document (REQUEST.json's schema). Unlike the CLI, `request_id` is required:
 * it is what makes a redelivered request return its recorded decision instead of placing twice.
 * @throws ValidationError listing every problem with its field path.
 */
export function parseScheduleRequest(doc: unknown, source = 'schedule request'): RequestSpec {
  const issues: Issue[] = [];
  const id = (doc as { request_id?: unknown } | null)?.request_id;
  if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) {
    if (id === undefined) {
      issues.push({
        path: 'request_id',
        message: 'is required (a unique id per request; a redelivery with the same id is answered once)',
      });
    }
  }
  let spec: RequestSpec;
  try {
    spec = parseRequestSpec(doc, source);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(source, [...issues, ...error.issues]);
  }
  if (issues.length > 0) throw new ValidationError(source, issues);
  return spec;
}

/** A message or HTTP body: JSON text holding one schedule request. */
export function parseScheduleBody(body: string, source = 'schedule request'): RequestSpec {
  return parseScheduleRequest(parseJsonBody(body, source), source);
}
