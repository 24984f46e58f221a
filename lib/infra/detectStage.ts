/**
 * The detector (functions/detect): the reconcile loop that finds suffering VMs, writes plans and
 * their migration records, and sends executable migrations to the plan queue. Run every minute and
 * on demand (detectTriggers.ts). One run at a time (reserved concurrency 1): overlapping triggers
 * wait in Lambda's asynchronous queue instead of planning against each other.
 */
import { Duration } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { PlacidConfig } from './config.js';
import { DetectTriggers } from './detectTriggers.js';
import { EventDeadLetters } from './eventDeadLetters.js';
import type { Observability } from './observability.js';
import { METRICS, RUNTIME_ENV, SERVICE_NAMES } from './runtimeEnv.js';
import { ServiceFunction } from './serviceFunction.js';
import type { ServiceQueue } from './serviceQueue.js';
import type { TableAccess, Tables } from './tables.js';

export const DETECT_ENTRY = 'functions/detect/handler.ts';

/** The detector runs every minute: this many minutes without a completed run raise the alarm. */
export const DETECTOR_SILENT_MINUTES = 5;

/**
 * Exactly the calls lib/detector makes: lists hosts and instances (Scan), reads the sample window
 * from the window digests, or node by node (Query); reads past moves for cooldowns and a plan's records (Query, also by plan index);
 * writes plans and the detector's state item (Get, Put, Update; Query by status) and migration
 * records (conditional Put, status Update); takes and releases its lease (Update) and reads the
 * ingest watermark and since when digests are written (Get).
 */
export const DETECT_TABLE_ACCESS: TableAccess = {
  hosts: ['Scan'],
  instances: ['Scan'],
  samples: ['Query'],
  plans: ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
  migrations: ['Query', 'PutItem', 'UpdateItem'],
  leases: ['GetItem', 'UpdateItem'],
};

export interface DetectStageProps {
  readonly config: PlacidConfig;
  readonly tables: Tables;
  /** Where executable migrations go (the workflow's plan starter consumes it). */
  readonly planQueue: ServiceQueue;
  /** The messaging key, for the trigger dead-letter queue. */
  readonly key: IKey;
  readonly observability: Observability;
}

export class DetectStage extends Construct {
  readonly function: ServiceFunction;
  /** Trigger events that could not be delivered, or whose run kept failing. */
  readonly deadLetters: EventDeadLetters;
  readonly triggers: DetectTriggers;

  constructor(scope: Construct, id: string, props: DetectStageProps) {
    super(scope, id);
    const { config, tables, planQueue } = props;
    this.function = new ServiceFunction(this, 'Function', {
      entry: DETECT_ENTRY,
      serviceName: SERVICE_NAMES.detect,
      description: 'Finds VMs suffering CPU steal, plans live migrations, queues the executable ones',
      timeout: Duration.seconds(config.detectTimeoutSeconds),
      memorySize: config.detectMemoryMb,
      logRetention: config.logRetentionDays as RetentionDays,
      reservedConcurrentExecutions: 1,
      environment: {
        ...tables.environment(DETECT_TABLE_ACCESS),
        [RUNTIME_ENV.planQueueUrl]: planQueue.queue.queueUrl,
        ...(config.rebalance ? { [RUNTIME_ENV.rebalanceSettings]: config.rebalance } : {}),
        ...(config.schedulerConfig ? { [RUNTIME_ENV.schedulerConfig]: config.schedulerConfig } : {}),
      },
    });
    tables.grant(this.function, DETECT_TABLE_ACCESS);
    for (const statement of planQueue.sendStatements()) this.function.addToRolePolicy(statement);

    this.deadLetters = new EventDeadLetters(this, 'TriggerDeadLetters', {
      key: props.key,
      retention: Duration.days(config.deadLetterRetentionDays),
    });
    // A run that keeps failing (or waits too long behind others) lands in the dead-letter queue:
    // for a plan approval that is the record to replay; a missed tick is redone a minute later.
    this.function.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.minutes(30),
      onFailure: this.deadLetters.failureDestination(),
    });
    this.triggers = new DetectTriggers(this, 'Triggers', {
      detector: this.function,
      deadLetters: this.deadLetters,
      alarmPrefix: config.detectAlarmPrefix,
    });
    this.watch(props.observability);
  }

  private watch(observability: Observability): void {
    observability.alarmWhenSilent(
      'DetectorNotRunning',
      SERVICE_NAMES.detect,
      METRICS.detectorRuns,
      DETECTOR_SILENT_MINUTES,
      'the reconcile loop is not running, or every run fails',
    );
    observability.alarmOnDeadLetters(
      'DetectTriggers',
      this.deadLetters.queue,
      'detector triggers that could not be delivered, or whose runs kept failing',
    );
    observability.watchCounters('Detector', SERVICE_NAMES.detect, [
      METRICS.detectorRuns,
      ...METRICS.detector,
    ]);
    // Throttles are by design here: reserved concurrency 1 makes overlapping triggers wait their turn.
    observability.watchFunction('Detector', this.function, { alarmOnThrottles: false });
  }
}
