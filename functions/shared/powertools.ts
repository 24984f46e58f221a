import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { BatchCounts } from '../../lib/queue/processBatch.js';

// One Logger and one Metrics per Lambda; the environment (POWERTOOLS_*) wins over these fallbacks.
const serviceName = process.env.POWERTOOLS_SERVICE_NAME || 'placid';

export const logger = new Logger({ serviceName });

export const metrics = new Metrics({
  serviceName,
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || 'Placid',
});

/** Publishes a batch's outcome, so rejected and retried messages are visible on a dashboard. */
export function recordBatchCounts(counts: BatchCounts): void {
  metrics.addMetric('MessagesStored', MetricUnit.Count, counts.stored);
  metrics.addMetric('MessagesRejected', MetricUnit.Count, counts.rejected);
  metrics.addMetric('MessagesRetried', MetricUnit.Count, counts.retried);
}
