import type { SQSEvent, SQSRecord } from 'aws-lambda';

const ARN = 'arn:aws:sqs:us-east-1:000000000000:placid-ingest';

/** A complete SQS record (every field Powertools' schema requires); `id` defaults from the body. */
export function sqsRecord(
  body: string,
  overrides: Partial<SQSRecord> & { correlationId?: string } = {},
): SQSRecord {
  const { correlationId, ...rest } = overrides;
  return {
    messageId: `id-${body.slice(0, 20)}`,
    receiptHandle: 'handle',
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '1767225600000',
      SenderId: 'AIDATEST',
      ApproximateFirstReceiveTimestamp: '1767225600000',
    },
    messageAttributes: correlationId
      ? {
          correlation_id: {
            stringValue: correlationId,
            dataType: 'String',
            stringListValues: [],
            binaryListValues: [],
          },
        }
      : {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: ARN,
    awsRegion: 'us-east-1',
    ...rest,
  };
}

export const sqsEvent = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
