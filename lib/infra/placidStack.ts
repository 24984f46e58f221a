/**
 * The deployable service: one construct per part, wired here and nowhere else. The detector and the
 * migration workflow each take the tables, queues and secrets they need and register their own
 * alarms and dashboard rows with `observability`.
 */
import { CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { configFromContext, type PlacidConfig, rolesAnywhereOf } from './config.js';
import { DetectStage } from './detectStage.js';
import { watchFunctionUrl } from './edgeAlarms.js';
import { IngestStage } from './ingestStage.js';
import { Observability } from './observability.js';
import { Queues } from './queues.js';
import { RolesAnywhereRole } from './rolesAnywhereRole.js';
import { METRICS, SERVICE_NAMES } from './runtimeEnv.js';
import { ScheduleStage } from './scheduleStage.js';
import { ServiceSecrets } from './secrets.js';
import { Tables } from './tables.js';
import { MigrationWorkflow } from './workflow.js';

export class PlacidStack extends Stack {
  readonly config: PlacidConfig;
  readonly tables: Tables;
  readonly queues: Queues;
  readonly secrets: ServiceSecrets;
  readonly ingest: IngestStage;
  readonly schedule: ScheduleStage;
  readonly observability: Observability;
  readonly workflow: MigrationWorkflow;
  readonly detect: DetectStage;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, { description: 'Placid: VM placement and rebalancing pipeline', ...props });
    this.config = configFromContext(this.node);
    const config = this.config;

    this.tables = new Tables(this, 'Tables');
    this.queues = new Queues(this, 'Queues', { config });
    this.secrets = new ServiceSecrets(this, 'Secrets', { config });
    this.ingest = new IngestStage(this, 'Ingest', { config, tables: this.tables, queue: this.queues.ingest });
    this.schedule = new ScheduleStage(this, 'Schedule', {
      config,
      tables: this.tables,
      requests: this.queues.scheduleRequests,
      replies: this.queues.scheduleReplies,
    });

    const schedulerHosts = rolesAnywhereOf(config, 'scheduler');
    if (schedulerHosts) {
      // nova-scheduler hosts that sign requests to the Function URL, with the schedule client policy.
      new RolesAnywhereRole(this, 'SchedulerHosts', {
        ...schedulerHosts,
        policy: this.schedule.clientPolicy,
        purpose: 'Scheduler',
      });
    }

    this.observability = new Observability(this, 'Observability', { config, key: this.queues.key });
    const { ingest, scheduleQueue, scheduleHttp } = SERVICE_NAMES;
    this.observability.alarmWhenSilent(
      'IngestReportsStale',
      ingest,
      METRICS.reportsStored,
      config.reportMaxAgeMinutes,
      'agents silent or ingest stuck',
    );
    this.observability.watchCounters('Ingest', ingest, [...METRICS.batch, ...METRICS.ingest]);
    this.observability.watchCounters('Schedule (queue)', scheduleQueue, [
      ...METRICS.batch,
      ...METRICS.schedule,
    ]);
    this.observability.watchCounters('Schedule (URL)', scheduleHttp, METRICS.schedule);
    this.observability.watchCounters('Advisory decisions (the plug-in)', scheduleHttp, METRICS.advisory);
    this.observability.watchQueue('Ingest', this.queues.ingest);
    this.observability.watchQueue('ScheduleRequests', this.queues.scheduleRequests);
    this.observability.watchQueue('ScheduleReplies', this.queues.scheduleReplies);
    this.observability.watchFunction('Ingest', this.ingest.function);
    this.observability.watchFunction('ScheduleQueue', this.schedule.queueFunction);
    this.observability.watchFunction('ScheduleHttp', this.schedule.httpFunction);
    watchFunctionUrl(this.observability, {
      fn: this.schedule.httpFunction,
      pluginTimeoutMs: config.pluginTimeoutMs,
      failOpenPercent: config.pluginFailOpenAlarmPercent,
    });
    // The migration workflow (state machine, steps Lambda, plan queue and starter) registers itself.
    this.workflow = new MigrationWorkflow(this, 'Workflow', {
      config,
      tables: this.tables,
      queues: this.queues,
      secrets: this.secrets,
      observability: this.observability,
      settings: config.workflowSettings,
      ingestQueue: this.queues.ingest,
    });
    // The detector feeds the workflow's plan queue; it registers itself too.
    this.detect = new DetectStage(this, 'Detect', {
      config,
      tables: this.tables,
      planQueue: this.workflow.planQueue,
      key: this.queues.key,
      observability: this.observability,
    });

    this.acknowledgeFindings();
    this.outputs();
  }

  // Each cdk-nag finding this stack accepts, with the reason (cdk-nag v3: one acknowledgement per finding).
  private acknowledgeFindings(): void {
    const stageFunctions = [
      this.ingest.function,
      this.schedule.queueFunction,
      this.schedule.httpFunction,
      this.detect.function,
    ];
    for (const fn of stageFunctions) {
      Validations.of(fn.role!).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions',
      });
    }
  }

  private outputs(): void {
    const out = (id: string, value: string, description: string) =>
      new CfnOutput(this, id, { value, description });
    out('IngestQueueUrl', this.queues.ingest.queue.queueUrl, 'Agents send reports here');
    out('ReportSenderPolicyArn', this.ingest.senderPolicy.managedPolicyArn, 'Attach to the agents');
    out('ScheduleUrl', this.schedule.url.url, 'Synchronous scheduling (SigV4, service lambda)');
    out('ScheduleRequestQueueUrl', this.queues.scheduleRequests.queue.queueUrl, 'Queued scheduling');
    out('ScheduleReplyQueueUrl', this.queues.scheduleReplies.queue.queueUrl, 'Decisions of queued requests');
    out('ScheduleClientPolicyArn', this.schedule.clientPolicy.managedPolicyArn, 'Attach to schedule callers');
    out(
      'DetectorRequesterPolicyArn',
      this.detect.triggers.requesterPolicy.managedPolicyArn,
      'Attach to operators who request runs or approve plans',
    );
    out(
      'DetectorDeadLetterQueueUrl',
      this.detect.deadLetters.queue.queueUrl,
      'Detector triggers that failed',
    );
    out('AlarmTopicArn', this.observability.topic.topicArn, 'Subscribe to receive alarms');
    out('DashboardName', this.observability.dashboard.dashboardName, 'CloudWatch dashboard');
  }
}
