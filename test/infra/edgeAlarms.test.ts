/**
 * What the operator watches at the edges (lib/infra/edgeAlarms.ts): agent liveness from the
 * activity's metrics, the Function URL's own 5xx and latency (the handler answers its 500/503
 * itself, so Lambda's Errors never counts them), the plug-in's unusable answers, and the advisory
 * decision count on the dashboard.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthTemplate } from './synth.js';

let template: Template;
beforeAll(() => {
  template = synthTemplate();
});

type Props = Record<string, unknown> & {
  Metrics?: Array<{
    Id: string;
    Expression?: string;
    MetricStat?: { Metric: Record<string, unknown>; Stat: string };
  }>;
};

function alarm(idPrefix: string): Props {
  const found = Object.entries(template.findResources('AWS::CloudWatch::Alarm')).filter(([id]) =>
    id.startsWith(`Observability${idPrefix}`),
  );
  expect(found, idPrefix).toHaveLength(1);
  return found[0][1].Properties as Props;
}

const metricsOf = (p: Props) =>
  (p.Metrics ?? []).flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric.MetricName as string] : [])).sort();

describe('agent liveness', () => {
  it('alarms when a step waits over a minute for an agent (ActivityScheduleTime of the agents’ activity)', () => {
    const p = alarm('AgentsSlowToTakeSteps');
    expect(p).toMatchObject({
      Namespace: 'AWS/States',
      MetricName: 'ActivityScheduleTime',
      Statistic: 'Maximum',
      Threshold: 60_000,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(JSON.stringify(p.Dimensions)).toMatch(/WorkflowAgentSteps/);
  });

  it('alarms on any activity that timed out or lost its heartbeat', () => {
    const p = alarm('AgentStepsTimedOut');
    expect(metricsOf(p)).toEqual(['ActivitiesHeartbeatTimedOut', 'ActivitiesTimedOut']);
    expect(p).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
  });
});

describe('the schedule Function URL and the plug-in', () => {
  const urlFunction = (p: Props) => JSON.stringify(p.Dimensions ?? p.Metrics);

  it('alarms on the URL’s own 5xx count, which Lambda’s Errors metric never sees', () => {
    const p = alarm('ScheduleUrl5xx');
    expect(p).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Url5xxCount',
      Statistic: 'Sum',
      Threshold: 0,
    });
    expect(urlFunction(p)).toMatch(/ScheduleHttpFunction/);
  });

  it('alarms when p99 latency passes the plug-in’s timeout (placid:pluginTimeoutMs)', () => {
    expect(alarm('ScheduleUrlSlow')).toMatchObject({
      MetricName: 'UrlRequestLatency',
      ExtendedStatistic: 'p99',
      Threshold: 2000,
    });
    const tuned = synthTemplate({ context: { 'placid:pluginTimeoutMs': 500 } });
    const slow = Object.entries(tuned.findResources('AWS::CloudWatch::Alarm')).find(([id]) =>
      id.startsWith('ObservabilityScheduleUrlSlow'),
    )!;
    expect(slow[1].Properties.Threshold).toBe(500);
  });

  it('alarms on the share of requests the plug-in could not use (its fail-open rate as AWS sees it)', () => {
    const p = alarm('PluginFailOpen');
    expect(metricsOf(p)).toEqual(['Url4xxCount', 'Url5xxCount', 'UrlRequestCount']);
    expect(p.Metrics?.find((m) => m.Expression)?.Expression).toContain(
      '100 * (FILL(e4, 0) + FILL(e5, 0)) / requests',
    );
    expect(p).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanThreshold' });
  });

  it('puts the advisory decisions, the URL’s answers and the agents on the dashboard', () => {
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const name of [
      'DecisionsAdvised',
      'Url5xxCount',
      'Url4xxCount',
      'UrlRequestLatency',
      'ActivityScheduleTime',
    ]) {
      expect(body, name).toContain(`\\"${name}\\"`);
    }
  });
});
