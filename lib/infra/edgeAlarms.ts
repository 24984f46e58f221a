/**
 * Alarms on the two edges Placid does not run in AWS: the agents (do they take the on-premises
 * steps?) and the nova-scheduler plug-in's calls to the Function URL (do they get an answer in time?).
 *
 * Agents: Step Functions publishes per activity how long a task waited for an agent
 * (ActivityScheduleTime) and how many timed out or lost their heartbeat; a task no agent takes
 * times out without ever being scheduled, so both are watched.
 *
 * The Function URL: the handler answers its own 500/503, so Lambda's Errors metric never counts
 * them; Lambda's URL metrics (Url4xxCount, Url5xxCount, UrlRequestLatency) do. The plug-in fails
 * open on any 4xx/5xx, on a timeout and on no connection. It cannot publish to CloudWatch itself,
 * so what AWS sees is a lower bound of its fail-open rate: answers it could not use, and answers
 * slower than its timeout. Connection failures show only in nova-scheduler's log ("Placid did not
 * answer", with the running count; docs/deploy.md "Alarms and dashboard").
 */
import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, MathExpression, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Activity } from 'aws-cdk-lib/aws-stepfunctions';
import { graph, type Observability } from './observability.js';

const FIVE_MINUTES = Duration.minutes(5);

/** An agent took longer than this to pick up a step: agents down, partitioned or all busy. */
export const AGENT_PICKUP_ALARM_SECONDS = 60;

export function watchAgents(observability: Observability, activity: Activity): void {
  observability.alarm('AgentsSlowToTakeSteps', {
    alarmDescription: `An on-premises step waited over ${AGENT_PICKUP_ALARM_SECONDS} s for an agent: agents down, partitioned or all busy`,
    metric: activity.metricScheduleTime({ statistic: 'Maximum', period: FIVE_MINUTES }),
    threshold: AGENT_PICKUP_ALARM_SECONDS * 1000,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  observability.alarm('AgentStepsTimedOut', {
    alarmDescription:
      'An on-premises step timed out or lost its agent heartbeat: an agent died or lost the network mid-step, or none took it',
    metric: new MathExpression({
      expression: 'timedOut + heartbeat',
      usingMetrics: {
        timedOut: activity.metricTimedOut({ statistic: 'Sum', period: FIVE_MINUTES }),
        heartbeat: activity.metricHeartbeatTimedOut({ statistic: 'Sum', period: FIVE_MINUTES }),
      },
      period: FIVE_MINUTES,
    }),
    threshold: 0,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  observability.row(
    graph('Agents: wait for an agent (ms, max)', [
      activity.metricScheduleTime({ statistic: 'Maximum', label: 'schedule time' }),
    ]),
    graph('Agents: steps', [
      activity.metricStarted({ statistic: 'Sum', label: 'started' }),
      activity.metricSucceeded({ statistic: 'Sum', label: 'succeeded' }),
      activity.metricFailed({ statistic: 'Sum', label: 'failed' }),
      activity.metricTimedOut({ statistic: 'Sum', label: 'timed out' }),
      activity.metricHeartbeatTimedOut({ statistic: 'Sum', label: 'heartbeat lost' }),
    ]),
  );
}

export interface FunctionUrlWatch {
  fn: IFunction;
  /** The plug-in's `[placid] timeout`, in ms: an answer slower than that was not used. */
  pluginTimeoutMs: number;
  /** Percent of requests the plug-in could not use before the alarm fires. */
  failOpenPercent: number;
}

export function watchFunctionUrl(observability: Observability, watch: FunctionUrlWatch): void {
  const url = (metricName: string, statistic: string) =>
    new Metric({
      namespace: 'AWS/Lambda',
      metricName,
      dimensionsMap: { FunctionName: watch.fn.functionName },
      statistic,
      period: FIVE_MINUTES,
    });
  const requests = url('UrlRequestCount', 'Sum');
  const errors5xx = url('Url5xxCount', 'Sum');
  const errors4xx = url('Url4xxCount', 'Sum');
  const unusable = new MathExpression({
    expression: 'IF(requests > 0, 100 * (FILL(e4, 0) + FILL(e5, 0)) / requests, 0)',
    usingMetrics: { requests, e4: errors4xx, e5: errors5xx },
    period: FIVE_MINUTES,
    label: 'answers the plug-in could not use (%)',
  });
  observability.alarm('ScheduleUrl5xx', {
    alarmDescription:
      'The schedule Function URL answered 5xx (500: a bug, 503: the store busy or unreachable): the plug-in failed open for those',
    metric: errors5xx,
    threshold: 0,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  observability.alarm('ScheduleUrlSlow', {
    alarmDescription: `The schedule Function URL's p99 latency is over the plug-in's ${watch.pluginTimeoutMs} ms timeout: slower requests failed open`,
    metric: url('UrlRequestLatency', 'p99'),
    threshold: watch.pluginTimeoutMs,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  observability.alarm('PluginFailOpen', {
    alarmDescription: `Over ${watch.failOpenPercent}% of the plug-in's requests got a 4xx/5xx (signing, policy or service trouble): nova-scheduler decided alone for them`,
    metric: unusable,
    threshold: watch.failOpenPercent,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  observability.row(
    graph(
      'Schedule URL: requests and answers per 5 min',
      [
        requests.with({ label: 'requests' }),
        errors4xx.with({ label: '4xx' }),
        errors5xx.with({ label: '5xx' }),
      ],
      8,
    ),
    graph(
      'Schedule URL: latency (ms)',
      [
        url('UrlRequestLatency', 'p50').with({ label: 'p50' }),
        url('UrlRequestLatency', 'p99').with({ label: 'p99' }),
      ],
      8,
    ),
    graph('Plug-in: answers it could not use (%, lower bound of fail-open)', [unusable], 8),
  );
}
