import type { HostState } from '../../model/hostState.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';
import { parseOptions } from '../weighers/parseOptions.js';

const METRICS_MISSING = reject<readonly string[]>((host, _spec, names) => {
  const missing = names.filter((name) => !reports(host, name)).map((name) => `'${name}'`);
  const reported = host.metrics.map((m) => `'${m.name}'`).join(', ') || 'none';
  return `host does not report metric(s) ${missing.join(', ')} named in [metrics] weight_setting (it reports ${reported})`;
});

/**
 * Passes hosts that report every metric named in `[metrics] weight_setting`, so MetricsWeigher can
 * weigh them. Names are read as Nova's parse_options reads them: an entry without '=' or with an
 * unparsable ratio is ignored, and the name is not stripped.
 */
export const MetricsFilter = defineFilter<readonly string[]>({
  name: 'MetricsFilter',
  prepare: (_spec, ctx) => {
    const names = [...new Set(parseOptions(ctx.config.metrics.weight_setting).map(([name]) => name))];
    return names.length === 0 ? PASS_ALL : names;
  },
  check: (host, _spec, names) => {
    for (let i = 0; i < names.length; i++) if (!reports(host, names[i])) return METRICS_MISSING;
    return PASS;
  },
});

function reports(host: HostState, name: string): boolean {
  const metrics = host.metrics;
  for (let i = 0; i < metrics.length; i++) if (metrics[i].name === name) return true;
  return false;
}
