/**
 * An optional construct: `placid collect` as a scheduled Lambda in the operator's VPC, where it
 * can reach Prometheus and Keystone/Nova. It sends report messages to the ingest queue. The config
 * is checked at synth time and travels as JSON in the environment; the secrets it names
 * (`openstack.secret`, `prometheus.auth.secret`) are Secrets Manager secrets passed in here,
 * readable by this function only. Not part of PlacidStack: add it (docs/collect.md) when wanted.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ISecurityGroup, IVpc, SubnetSelection } from 'aws-cdk-lib/aws-ec2';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Role } from 'aws-cdk-lib/aws-iam';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { COLLECT_ENV } from '../../functions/collect/env.js';
import { type CollectConfigInput, collectConfigSchema } from '../collect/config.js';
import { ConfigError } from '../model/errors.js';
import { ServiceFunction } from './serviceFunction.js';

export interface PlacidCollectorProps {
  /** The operator's VPC: the function needs a route to Prometheus and to Keystone/Nova/Placement. */
  readonly vpc: IVpc;
  /** Default: the VPC's private subnets with egress (SQS and Secrets Manager need a way out or endpoints). */
  readonly vpcSubnets?: SubnetSelection;
  /** Default: a new security group that allows all outbound traffic and no inbound. */
  readonly securityGroups?: ISecurityGroup[];
  /** Where the reports go: the stack's ingest queue (`PlacidStack.queues.ingest.queue`). */
  readonly ingestQueue: IQueue;
  /** The config (docs/collect.md), as an object; `credentials` is ignored here. */
  readonly config: CollectConfigInput;
  /** The secrets the config names, by that name: `{ openstack: novaSecret, prometheus: promSecret }`. */
  readonly secrets: Readonly<Record<string, ISecret>>;
  /** Default 1 minute: one run per `collect.step` is the natural rhythm. */
  readonly schedule?: Duration;
  /** Default 50 s, under the schedule, so runs do not overlap. */
  readonly timeout?: Duration;
  /** Default 512 MB. */
  readonly memorySize?: number;
  readonly logRetention?: RetentionDays;
}

/** Lambda environment variables may total 4 KB; leave room for the rest. */
const MAX_CONFIG_BYTES = 3_000;

export class PlacidCollector extends Construct {
  readonly function: ServiceFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: PlacidCollectorProps) {
    super(scope, id);
    const config = checkedConfig(props);
    const timeout = props.timeout ?? Duration.seconds(50);
    this.function = new ServiceFunction(this, 'Function', {
      entry: 'functions/collect/handler.ts',
      serviceName: 'placid-collect',
      description: 'Placid collector: Prometheus metrics and Nova inventory into report messages',
      timeout,
      memorySize: props.memorySize ?? 512,
      logRetention: props.logRetention ?? RetentionDays.ONE_MONTH,
      vpc: props.vpc,
      vpcSubnets: props.vpcSubnets,
      securityGroups: props.securityGroups,
      environment: {
        [COLLECT_ENV.config]: config,
        [COLLECT_ENV.queueUrl]: props.ingestQueue.queueUrl,
        [COLLECT_ENV.secretIds]: Stack.of(this).toJsonString(
          Object.fromEntries(Object.entries(props.secrets).map(([name, s]) => [name, s.secretName])),
        ),
      },
    });
    const role = this.function.role as Role;
    props.ingestQueue.grantSendMessages(role);
    for (const secret of Object.values(props.secrets)) secret.grantRead(role);
    this.rule = new Rule(this, 'Schedule', {
      description: 'Runs the Placid collector',
      schedule: Schedule.rate(props.schedule ?? Duration.minutes(1)),
      // A missed run is replaced by the next one; retrying it late would only overlap.
      targets: [new LambdaFunction(this.function, { retryAttempts: 0 })],
    });
    this.acknowledgeFindings(role);
  }

  private acknowledgeFindings(role: Role): void {
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions',
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole]',
      reason:
        'The AWS-managed policy a Lambda in a VPC needs for its network interfaces, kept current by AWS',
    });
  }
}

function checkedConfig(props: PlacidCollectorProps): string {
  const parsed = collectConfigSchema.safeParse(props.config);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`PlacidCollector config: ${issues.join('; ')}`);
  }
  const names = [parsed.data.openstack.secret];
  if (parsed.data.prometheus.auth.type !== 'none') names.push(parsed.data.prometheus.auth.secret);
  const missing = names.filter((n) => !(n in props.secrets));
  if (missing.length > 0) {
    throw new ConfigError(
      `PlacidCollector: the config names secret(s) ${missing.join(', ')}, not given in props.secrets`,
    );
  }
  const { credentials: _ignored, ...rest } = props.config;
  const json = JSON.stringify(rest);
  if (Buffer.byteLength(json) > MAX_CONFIG_BYTES) {
    throw new ConfigError(
      `PlacidCollector config is ${Buffer.byteLength(json)} bytes as JSON; at most ${MAX_CONFIG_BYTES} fit in the environment`,
    );
  }
  return json;
}
