/**
 * The ingest Lambda: SQS batches of agent reports into DynamoDB, with partial batch responses
 * (ReportBatchItemFailures). The work is lib/ingest's ingestBatch; this file only wires it up.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type IngestBatchResult, ingestBatch } from '../../lib/ingest/ingestBatch.js';
import { KnownHosts } from '../../lib/ingest/knownHosts.js';
import { NotedWatermark } from '../../lib/ingest/notedWatermark.js';
import { systemClock } from '../../lib/model/clock.js';
import { SqsQueue } from '../../lib/queue/sqs.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { lazily } from '../shared/coldStart.js';
import { withPowertools } from '../shared/middleware.js';
import { logger, metrics, recordBatchCounts } from '../shared/powertools.js';
import { loadIngestConfig } from './config.js';

const stage = lazily(() => {
  const config = loadIngestConfig();
  const store = new FleetStore({
    doc: createDocumentClient({ region: config.region, endpoint: config.dynamoEndpoint }),
    tables: config.tables,
  });
  const deadLetter = new SqsQueue(new SQSClient({ region: config.region }), config.deadLetterQueueUrl);
  // Live as long as the container, so a warm Lambda looks each node up once and writes the
  // watermark only when it moves.
  return { store, deadLetter, knownHosts: KnownHosts.inStore(store), watermark: new NotedWatermark() };
});

function recordIngestMetrics(result: IngestBatchResult): void {
  recordBatchCounts(result.counts);
  metrics.addMetric('ReportsStored', MetricUnit.Count, result.reports.stored);
  metrics.addMetric('ReportsUnchanged', MetricUnit.Count, result.reports.unchanged);
  metrics.addMetric('ReportsStale', MetricUnit.Count, result.reports.stale);
  metrics.addMetric('ReportsRejected', MetricUnit.Count, result.reports.rejected);
  metrics.addMetric('SamplesWritten', MetricUnit.Count, result.reports.samples);
  metrics.addMetric('SamplePagesWritten', MetricUnit.Count, result.reports.pages);
}

export const handler = withPowertools(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const result = await ingestBatch(event, { ...(await stage()), clock: systemClock, logger });
  recordIngestMetrics(result);
  return result.response;
});
