/** The collector's CloudWatch metrics: what each run reported and whether it was complete. */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { RunSummary } from '../../lib/collect/summary.js';
import { metrics } from '../shared/powertools.js';

export function recordRun(summary: RunSummary): void {
  metrics.addMetric('CollectHosts', MetricUnit.Count, summary.hosts);
  metrics.addMetric('CollectVms', MetricUnit.Count, summary.vms);
  metrics.addMetric('CollectSamples', MetricUnit.Count, summary.samples.hosts + summary.samples.vms);
  metrics.addMetric('CollectUnmappedSeries', MetricUnit.Count, summary.mapping.unmapped.length);
  metrics.addMetric('CollectVmsWithoutSeries', MetricUnit.Count, summary.vms_without_series.length);
  metrics.addMetric('CollectMessagesRefused', MetricUnit.Count, summary.messages.rejected.length);
  metrics.addMetric('CollectIncomplete', MetricUnit.Count, summary.complete ? 0 : 1);
}
