/**
 * Alarms and the dashboard. Each part of the stack registers itself (`watchQueue`,
 * `watchFunction`, `watchCounters`, `alarmWhenSilent`), so later stages (detector, workflow) add their own alarms and
 * rows the same way. Every alarm notifies one encrypted SNS topic.
 */
import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  type IWidget,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { PlacidConfig } from './config.js';
import { METRICS } from './runtimeEnv.js';
import type { ServiceQueue } from './serviceQueue.js';

export interface ObservabilityProps {
  readonly config: PlacidConfig;
  /** Encrypts the alarm topic; CloudWatch is allowed to use it to publish. */
  readonly key: IKey;
}

const ONE_MINUTE = Duration.minutes(1);

export class Observability extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];
  private readonly config: PlacidConfig;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.config = props.config;
    this.topic = new Topic(this, 'AlarmTopic', { masterKey: props.key, enforceSSL: true });
    // Alarms publish as the CloudWatch service, which needs the key (an AWS managed key would refuse it).
    props.key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
      }),
    );
    if (props.config.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.config.alarmEmail));
    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
  }

  /** Alarm as soon as anything lands in the dead-letter queue; graph depth and age of both queues. */
  watchQueue(label: string, queue: ServiceQueue): void {
    this.alarm(`${label}DeadLetters`, {
      alarmDescription: `${label}: messages in the dead-letter queue (rejected or failed ${this.config.maxReceiveCount} times)`,
      metric: queue.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: ONE_MINUTE,
        statistic: 'Maximum',
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.row(
      graph(`${label} queue depth`, [
        queue.queue.metricApproximateNumberOfMessagesVisible({ label: 'waiting' }),
        queue.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ label: 'dead letters' }),
      ]),
      graph(`${label} oldest message (s)`, [queue.queue.metricApproximateAgeOfOldestMessage()]),
    );
  }

  /** Invocations, errors, throttles and p99 duration of a function. */
  watchFunction(label: string, fn: IFunction): void {
    this.row(
      graph(`${label} invocations`, [
        fn.metricInvocations({ statistic: 'Sum' }),
        fn.metricErrors({ statistic: 'Sum' }),
        fn.metricThrottles({ statistic: 'Sum' }),
      ]),
      graph(`${label} duration p99 (ms)`, [fn.metricDuration({ statistic: 'p99' })]),
    );
  }

  /** A row graphing a service's custom counters (per minute sums). */
  watchCounters(label: string, serviceName: string, metricNames: readonly string[]): void {
    this.row(
      graph(
        `${label} per minute`,
        metricNames.map((name) => counter(serviceName, name)),
        24,
      ),
    );
  }

  /**
   * Alarm when `serviceName` published no `metricName` for `reportMaxAgeMinutes`: the newest stored
   * data is then that old. Missing data breaches, because silent agents and a stuck ingest look alike.
   */
  alarmWhenSilent(id: string, serviceName: string, metricName: string): Alarm {
    const minutes = this.config.reportMaxAgeMinutes;
    return this.alarm(id, {
      alarmDescription: `${serviceName}: no ${metricName} for ${minutes} minutes (agents silent or ingest stuck)`,
      metric: counter(serviceName, metricName),
      threshold: 1,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: minutes,
      treatMissingData: TreatMissingData.BREACHING,
    });
  }

  /** An alarm that notifies the topic (for alarms later stages define themselves). */
  alarm(id: string, props: ConstructorParameters<typeof Alarm>[2]): Alarm {
    const alarm = new Alarm(this, id, props);
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
    return alarm;
  }

  /** Adds a row of widgets to the dashboard. */
  row(...widgets: IWidget[]): void {
    this.dashboard.addWidgets(...widgets);
  }
}

const graph = (title: string, left: IMetric[], width = 12): GraphWidget =>
  new GraphWidget({ title, left, width, height: 6 });

const counter = (serviceName: string, metricName: string): Metric =>
  new Metric({
    namespace: METRICS.namespace,
    metricName,
    dimensionsMap: { [METRICS.serviceDimension]: serviceName },
    statistic: 'Sum',
    period: ONE_MINUTE,
  });
