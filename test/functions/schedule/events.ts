/** Function URL events (payload format 2.0) and a Lambda context for the endpoint tests. */
import type { LambdaFunctionURLEvent, LambdaFunctionURLResult } from 'aws-lambda';
import { makeLambdaContext } from '../../../lib/local/lambdaContext.js';

export function urlEvent(
  body: string | undefined,
  method = 'POST',
  isBase64Encoded = false,
): LambdaFunctionURLEvent {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    body,
    isBase64Encoded,
    requestContext: {
      accountId: '000000000000',
      apiId: 'placid-url',
      domainName: 'placid-url.lambda-url.us-east-1.on.aws',
      domainPrefix: 'placid-url',
      http: { method, path: '/', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: 'req',
      routeKey: '$default',
      stage: '$default',
      time: '01/Dec/2026:12:00:00 +0000',
      timeEpoch: 0,
    },
  };
}

export const urlContext = () => makeLambdaContext({ functionName: 'placid-schedule-url' });

export interface UrlAnswer {
  status: number;
  headers: Record<string, unknown>;
  body: { error?: { type: string; message: string }; [key: string]: unknown };
}

/** The structured result, with its body parsed. */
export function answerOf(result: LambdaFunctionURLResult): UrlAnswer {
  if (typeof result === 'string') throw new Error('expected a structured result');
  return {
    status: result.statusCode ?? 0,
    headers: result.headers ?? {},
    body: JSON.parse(result.body ?? 'null'),
  };
}
