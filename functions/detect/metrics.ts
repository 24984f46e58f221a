/** The detector's metrics; DetectorRuns is the heartbeat the "detector not running" alarm watches. */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { ReconcileResult } from '../../lib/detector/index.js';
import { metrics } from '../shared/powertools.js';

export const DETECT_METRICS = {
  runs: 'DetectorRuns',
  plans: 'PlansMade',
  queued: 'MigrationsQueued',
  suffering: 'SufferingVms',
  expired: 'PlansExpired',
} as const;

export function recordRun(result: ReconcileResult): void {
  metrics.addMetric(DETECT_METRICS.runs, MetricUnit.Count, 1);
  metrics.addMetric(DETECT_METRICS.plans, MetricUnit.Count, result.plan ? 1 : 0);
  metrics.addMetric(DETECT_METRICS.queued, MetricUnit.Count, result.sent.length);
  metrics.addMetric(DETECT_METRICS.expired, MetricUnit.Count, result.expired.length);
  // Only a run that detected knows; a missing point is not "zero suffering".
  if (result.suffering !== undefined)
    metrics.addMetric(DETECT_METRICS.suffering, MetricUnit.Count, result.suffering);
}
