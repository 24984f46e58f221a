import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj } from '@middy/core';

/** The SQS message attribute (and, lower-cased, HTTP header) that carries a correlation id across stages. */
export const CORRELATION_ID_ATTRIBUTE = 'correlation_id';
const CORRELATION_ID_HEADER = 'x-correlation-id';

interface MaybeSqsOrHttpEvent {
  Records?: { messageAttributes?: Record<string, { stringValue?: string } | undefined> }[];
  headers?: Record<string, string | undefined>;
}

/**
 * The correlation id of an invocation: the first SQS record that carries the `correlation_id`
 * attribute, else the `x-correlation-id` header of an HTTP event, else undefined.
 */
export function correlationIdOf(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const { Records, headers } = event as MaybeSqsOrHttpEvent;
  if (Array.isArray(Records)) {
    for (const record of Records) {
      const id = record?.messageAttributes?.[CORRELATION_ID_ATTRIBUTE]?.stringValue;
      if (id) return id;
    }
  }
  return headers?.[CORRELATION_ID_HEADER] || undefined;
}

/** Middy middleware: puts the invocation's correlation id on every log line (cleared by `resetKeys`). */
export function correlationIds(logger: Logger): MiddlewareObj {
  return {
    before: (request) => {
      const id = correlationIdOf(request.event);
      if (id) logger.setCorrelationId(id);
    },
  };
}
