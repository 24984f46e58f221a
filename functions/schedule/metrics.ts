import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { AdvisoryOutcome } from '../../lib/schedule/advisory.js';
import type { ScheduleOutcome } from '../../lib/schedule/core.js';
import { metrics } from '../shared/powertools.js';

/** One decision's figures: placed or NoValidHost, replays, lost claim races, snapshot refresh cost. */
export function recordDecisionMetrics(outcome: ScheduleOutcome): void {
  if (outcome.replayed) {
    metrics.addMetric('DecisionsReplayed', MetricUnit.Count, 1);
    return;
  }
  const placed = outcome.decision.error === undefined;
  metrics.addMetric(placed ? 'DecisionsPlaced' : 'DecisionsNoValidHost', MetricUnit.Count, 1);
  metrics.addMetric('ClaimConflicts', MetricUnit.Count, outcome.claim_conflicts);
  if (outcome.refresh && outcome.refresh.kind !== 'fresh') {
    metrics.addMetric('SnapshotHostsChanged', MetricUnit.Count, outcome.refresh.changed);
    metrics.addMetric(
      'SnapshotRefreshMs',
      MetricUnit.Milliseconds,
      outcome.refresh.readMs + outcome.refresh.rebuildMs,
    );
  }
}

/** One advisory decision: how many candidates it judged and how many Placid did not know. */
export function recordAdvisoryMetrics(outcome: AdvisoryOutcome): void {
  metrics.addMetric('DecisionsAdvised', MetricUnit.Count, 1);
  metrics.addMetric(
    'AdvisoryCandidates',
    MetricUnit.Count,
    outcome.answer.candidates.length + outcome.answer.unknown.length,
  );
  metrics.addMetric('AdvisoryUnknownHosts', MetricUnit.Count, outcome.answer.unknown.length);
}

/**
 * A request answered without a decision (4xx, 5xx), by status class. Every invocation then
 * publishes a metric, so Powertools never warns "No application metrics to publish" on stderr once
 * per rejected request.
 */
export function recordRefusal(status: number): void {
  metrics.addMetric(status >= 500 ? 'RequestsFailed' : 'RequestsRefused', MetricUnit.Count, 1);
}
