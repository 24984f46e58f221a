/**
 * Alarms and the dashboard. Each part of the stack registers itself (`watchQueue`,
 * `watchFunction`, `watchCounters`, `alarmWhenSilent`, `alarmOnDeadLetters`, `alarm`, `row`): the
 * detector and the workflow add their own alarms and rows. Every alarm notifies one encrypted SNS topic.
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
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
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
const FIVE_MINUTES = Duration.minutes(5);

export interface WatchFunctionOptions {
  /** Alarm on any unhandled error. Off where errors are the protocol (the workflow steps). Default true. */
  readonly alarmOnErrors?: boolean;
  /** Alarm on any throttle. Off where throttling is by design (reserved concurrency 1). Default true. */
  readonly alarmOnThrottles?: boolean;
}

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
    this.alarmOnDeadLetters(
      label,
      queue.deadLetterQueue,
      `rejected or failed ${this.config.maxReceiveCount} times`,
    );
    this.row(
      graph(`${label} queue depth`, [
        queue.queue.metricApproximateNumberOfMessagesVisible({ label: 'waiting' }),
        queue.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ label: 'dead letters' }),
      ]),
      graph(`${label} oldest message (s)`, [queue.queue.metricApproximateAgeOfOldestMessage()]),
    );
  }

  /** Alarm as soon as `deadLetterQueue` holds a message; `why` says how messages get there. */
  alarmOnDeadLetters(label: string, deadLetterQueue: IQueue, why: string): Alarm {
    return this.alarm(`${label}DeadLetters`, {
      alarmDescription: `${label}: messages in the dead-letter queue (${why})`,
      metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: ONE_MINUTE,
        statistic: 'Maximum',
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }

  /** Invocations, errors, throttles and p99 duration of a function; alarms on errors and throttles. */
  watchFunction(label: string, fn: IFunction, options: WatchFunctionOptions = {}): void {
    const errors = fn.metricErrors({ statistic: 'Sum', period: FIVE_MINUTES });
    const throttles = fn.metricThrottles({ statistic: 'Sum', period: FIVE_MINUTES });
    const anyIn = (id: string, metric: Metric, what: string) =>
      this.alarm(id, {
        alarmDescription: `${label}: ${what} in the last 5 minutes; see the function's logs`,
        metric,
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    if (options.alarmOnErrors ?? true) anyIn(`${label}Errors`, errors, 'invocations failed');
    if (options.alarmOnThrottles ?? true) anyIn(`${label}Throttles`, throttles, 'invocations throttled');
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
   * Alarm when `serviceName` published no `metricName` for `minutes` minutes. Missing data breaches:
   * a function that stopped running publishes nothing at all, and that is what this alarm is for.
   */
  alarmWhenSilent(
    id: string,
    serviceName: string,
    metricName: string,
    minutes: number,
    meaning: string,
  ): Alarm {
    return this.alarm(id, {
      alarmDescription: `${serviceName}: no ${metricName} for ${minutes} minutes (${meaning})`,
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

export const graph = (title: string, left: IMetric[], width = 12): GraphWidget =>
  new GraphWidget({ title, left, width, height: 6 });

/** Per-minute sum of a Powertools metric of one service. */
export const counter = (serviceName: string, metricName: string): Metric =>
  new Metric({
    namespace: METRICS.namespace,
    metricName,
    dimensionsMap: { [METRICS.serviceDimension]: serviceName },
    statistic: 'Sum',
    period: ONE_MINUTE,
  });
