import { RequestError } from '../../model/errors.js';
import type { HostState, MonitorMetric } from '../../model/hostState.js';
import type { EngineContext } from '../context.js';
import { ALL_ZERO, defineWeigher } from '../weigher.js';
import { parseOptions } from './parseOptions.js';

const AGGREGATE_KEY = 'metrics_weight_multiplier';

interface MetricsSetting {
  readonly names: readonly string[];
  readonly ratios: readonly number[];
}

/**
 * Σ metric value × ratio over `[metrics] weight_setting` (names may repeat; every entry counts).
 * A metric the host does not report is an error when `[metrics] required` (Nova's
 * ComputeHostMetricNotFound); otherwise the host gets `weight_of_unavailable`, unless that metric's
 * ratio × the host's multiplier is 0, in which case the metric is just skipped.
 */
export const MetricsWeigher = defineWeigher<MetricsSetting>({
  name: 'MetricsWeigher',
  // A missing metric raises (required=true) even when the multiplier is 0, as in Nova.
  mayRaise: true,
  novaPath: 'nova.scheduler.weights.metrics.MetricsWeigher',
  prepare: (_spec, ctx) => {
    const setting = parseOptions(ctx.config.metrics.weight_setting);
    if (setting.length === 0) return ALL_ZERO;
    return { names: setting.map(([name]) => name), ratios: setting.map(([, ratio]) => ratio) };
  },
  weigh: (host, _spec, { names, ratios }, ctx) => {
    let value = 0;
    for (let i = 0; i < names.length; i++) {
      const metric = reportedMetric(host.metrics, names[i]);
      if (metric) {
        if (metric.value === undefined) throw valuelessMetric(host, names[i]);
        value += metric.value * ratios[i];
        continue;
      }
      if (ctx.config.metrics.required) throw missingMetric(host, names[i]);
      // A missing metric that cannot count (ratio or multiplier 0) is skipped rather than penalised.
      if (ratios[i] * metricsMultiplier(host, ctx) !== 0) return ctx.config.metrics.weight_of_unavailable;
    }
    return value;
  },
  multiplier: metricsMultiplier,
  uniformMultiplier: (ctx) => !ctx.fleet.aggregateKeys.has(AGGREGATE_KEY),
});

function metricsMultiplier(host: HostState, ctx: EngineContext): number {
  return ctx.fleet.memberships.multiplier(host, AGGREGATE_KEY, ctx.config.metrics.weight_multiplier);
}

/** The host's metric named `name`; with duplicates the last one wins, as in Nova's name-keyed dict. */
function reportedMetric(metrics: readonly MonitorMetric[], name: string): MonitorMetric | undefined {
  for (let i = metrics.length - 1; i >= 0; i--) if (metrics[i].name === name) return metrics[i];
  return undefined;
}

function missingMetric(host: HostState, name: string): RequestError {
  return new RequestError(
    `MetricsWeigher: host ${host.host} (node ${host.nodename}) does not report metric '${name}' named in ` +
      '[metrics] weight_setting, and [metrics] required is true (Nova raises ComputeHostMetricNotFound); ' +
      'enable MetricsFilter to drop such hosts, or set [metrics] required = false to weigh them ' +
      'with [metrics] weight_of_unavailable',
  );
}

/** Nova's MonitorMetric raises when its unset `value` is read (a `numa.membw.*` with only per-node values). */
function valuelessMetric(host: HostState, name: string): RequestError {
  return new RequestError(
    `MetricsWeigher: host ${host.host} (node ${host.nodename}) reports metric '${name}' without a value ` +
      '(only numa_membw_values), so [metrics] weight_setting cannot weigh it (Nova raises too)',
  );
}
