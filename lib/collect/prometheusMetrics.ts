/** The metrics port over the Prometheus client: a range query, or an instant one for a single step. */
import type { PrometheusClient } from '../drivers/prometheus/client.js';
import type { MetricsSource, QueryResult, TimeRange } from './ports.js';

export class PrometheusMetrics implements MetricsSource {
  constructor(private readonly client: Pick<PrometheusClient, 'instantQuery' | 'rangeQuery'>) {}

  query(promql: string, range: TimeRange): Promise<QueryResult> {
    if (range.start.getTime() === range.end.getTime()) return this.client.instantQuery(promql, range.end);
    return this.client.rangeQuery(promql, range);
  }
}
