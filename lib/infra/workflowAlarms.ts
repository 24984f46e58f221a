/**
 * What the operators see of the migration workflow: alarms on failed, timed-out, aborted and
 * rolled-back executions, and a dashboard row of migrations and bytes moved. Rollbacks and
 * deferrals are counted from the execution log (metric filters on the states entered), so they
 * need nothing from the steps Lambda; bytes moved is published by the steps Lambda itself.
 */
import { Duration } from 'aws-cdk-lib';
import {
  ComparisonOperator,
  MathExpression,
  type Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { counter, graph, type Observability } from './observability.js';
import { METRICS } from './runtimeEnv.js';
import { STATE } from './workflowDefinition.js';

export interface WorkflowAlarmsProps {
  readonly observability: Observability;
  readonly stateMachine: StateMachine;
  /** The state machine's execution log (level ALL): one JSON event per history event. */
  readonly executionLogs: ILogGroup;
  /** POWERTOOLS_SERVICE_NAME of the steps Lambda (the `service` dimension of BytesMoved). */
  readonly stepsServiceName: string;
}

const period = Duration.minutes(1);
const sum = { period, statistic: 'Sum' };

export class WorkflowAlarms extends Construct {
  readonly rolledBack: Metric;
  readonly deferred: Metric;

  constructor(scope: Construct, id: string, props: WorkflowAlarmsProps) {
    super(scope, id);
    const { observability, stateMachine: sm } = props;
    this.rolledBack = this.countEntered(
      'RolledBack',
      METRICS.rolledBack,
      'TaskStateEntered',
      STATE.rollback,
      props,
    );
    this.deferred = this.countEntered(
      'Deferred',
      METRICS.deferred,
      'SucceedStateEntered',
      STATE.deferred,
      props,
    );

    const anyIn = (alarmId: string, description: string, metric: Metric | MathExpression) =>
      observability.alarm(alarmId, {
        alarmDescription: description,
        metric,
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    anyIn(
      'MigrationsFailed',
      'A migration execution failed: it was rolled back (or its cleanup failed); see the execution history',
      sm.metricFailed(sum),
    );
    anyIn(
      'MigrationsTimedOutOrAborted',
      'A migration execution timed out or was stopped by hand: its cleanup did not run',
      new MathExpression({
        expression: 'timedOut + aborted',
        usingMetrics: {
          timedOut: sm.metricTimedOut({ statistic: 'Sum' }),
          aborted: sm.metricAborted({ statistic: 'Sum' }),
        },
        period,
      }),
    );
    anyIn(
      'MigrationsRolledBack',
      'A migration was rolled back: the VM stays on its source; the execution history says why',
      this.rolledBack,
    );

    observability.row(
      graph(
        'Migrations per minute',
        [
          sm.metricStarted({ ...sum, label: 'started' }),
          sm.metricSucceeded({ ...sum, label: 'succeeded (migrated or deferred)' }),
          sm.metricFailed({ ...sum, label: 'failed' }),
          this.rolledBack.with({ label: 'rolled back' }),
          this.deferred.with({ label: 'deferred' }),
        ],
        16,
      ),
      graph(
        'Bytes moved per minute',
        [counter(props.stepsServiceName, METRICS.bytesMoved).with({ label: 'bytes moved' })],
        8,
      ),
    );
  }

  /** A metric counting executions that entered `state` (a `type` event of the execution log). */
  private countEntered(
    id: string,
    metricName: string,
    eventType: string,
    state: string,
    props: WorkflowAlarmsProps,
  ): Metric {
    const filter = new MetricFilter(this, id, {
      logGroup: props.executionLogs,
      metricNamespace: METRICS.namespace,
      metricName,
      filterPattern: FilterPattern.all(
        FilterPattern.stringValue('$.type', '=', eventType),
        FilterPattern.stringValue('$.details.name', '=', state),
      ),
      metricValue: '1',
    });
    return filter.metric(sum);
  }
}
