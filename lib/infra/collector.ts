/**
 * An optional construct: `placid collect` as a scheduled Lambda in the operator's VPC, where it
 * can reach Prometheus and Keystone/Nova. It sends report messages to the ingest queue. The config
 * is checked at synth time and travels as JSON in the environment; the secrets it names
 * (`openstack.secret`, `prometheus.auth.secret`) are Secrets Manager secrets passed in here,
 * readable by this function only. Not part of PlacidStack: add it (docs/collect.md) when wanted.
 */
import { join } from 'node:path';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ISecurityGroup, IVpc, SubnetSelection } from 'aws-cdk-lib/aws-ec2';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { COLLECT_ENV } from '../../functions/collect/env.js';
import { type CollectConfigInput, collectConfigSchema } from '../collect/config.js';
import { ConfigError } from '../model/errors.js';
import { METRICS } from './runtimeEnv.js';
import { ESM_REQUIRE_SHIM, NEVER_LOADED_ON_LAMBDA, PROJECT_ROOT } from './serviceFunction.js';

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
  readonly function: NodejsFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: PlacidCollectorProps) {
    super(scope, id);
    const config = checkedConfig(props);
    const timeout = props.timeout ?? Duration.seconds(50);
    const logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention ?? RetentionDays.ONE_MONTH });
    const role = new Role(this, 'FunctionRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Runs the Placid collector',
    });
    logGroup.grantWrite(role);
    // With its own role, a function in a VPC does not get this from CDK; Lambda needs it for the ENIs.
    role.addManagedPolicy(
      ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaVPCAccessExecutionRole'),
    );
    this.function = new NodejsFunction(this, 'Function', {
      entry: join(PROJECT_ROOT, 'functions/collect/handler.ts'),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      description: 'Placid collector: Prometheus metrics and Nova inventory into report messages',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      timeout,
      memorySize: props.memorySize ?? 512,
      tracing: Tracing.ACTIVE,
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      systemLogLevelV2: SystemLogLevel.WARN,
      vpc: props.vpc,
      vpcSubnets: props.vpcSubnets,
      securityGroups: props.securityGroups,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'placid-collect',
        POWERTOOLS_METRICS_NAMESPACE: METRICS.namespace,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        [COLLECT_ENV.config]: config,
        [COLLECT_ENV.queueUrl]: props.ingestQueue.queueUrl,
        [COLLECT_ENV.secretIds]: Stack.of(this).toJsonString(
          Object.fromEntries(Object.entries(props.secrets).map(([name, s]) => [name, s.secretName])),
        ),
      },
      // The same bundling as every ServiceFunction (serviceFunction.ts), which has no VPC settings.
      bundling: {
        format: OutputFormat.ESM,
        target: 'node20',
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        keepNames: true,
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_SHIM,
        externalModules: NEVER_LOADED_ON_LAMBDA,
      },
    });
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
