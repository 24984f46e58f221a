/**
 * NodejsFunction with Placid's defaults: Node.js 24 (the supported production runtime) on arm64, bundled locally by
 * esbuild as minified ESM with source maps, JSON logs into a log group with a retention, X-Ray
 * tracing and the Powertools environment, and a role that may write only its own log group.
 * Every Lambda of the stack is one of these.
 */
import { join } from 'node:path';
import type { Duration } from 'aws-cdk-lib';
import type { ISecurityGroup, IVpc, SubnetSelection } from 'aws-cdk-lib/aws-ec2';
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
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { packageRoot } from '../config/packageRoot.js';
import { METRICS } from './runtimeEnv.js';

/**
 * The repository root: entries are resolved from here, and package-lock.json pins the bundle.
 * Searched upwards for package.json, so it is right from lib/infra/ and from the bundled CLI (dist/).
 */
export const PROJECT_ROOT = packageRoot(import.meta.url);

/**
 * Left out of every bundle, because a Lambda never loads them (each is a lazy `import()`):
 * - tsx: only for TypeScript scheduler plugins (lib/engine/registry.ts reports a ConfigError without it);
 * - credential providers after the first: the SDK's chain stops at environment credentials, which
 *   the Lambda runtime always sets. Together about 180 KB of the schedule bundles;
 * - the official Kubernetes client: the drainer talks to the API itself and needs the client only to
 *   interpret a kubeconfig, which on Lambda is refused with a ConfigError asking for the token form
 *   (lib/drivers/kubernetes/connection.ts). The client would be about 3 MB of the workflow bundle.
 */
const NEVER_LOADED_ON_LAMBDA = [
  'tsx',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/credential-provider-login',
  '@aws-sdk/credential-provider-http',
  '@smithy/credential-provider-imds',
  '@kubernetes/client-node',
];

/** Powertools' shim: the ESM bundle still contains CommonJS dependencies that call `require`. */
const ESM_REQUIRE_SHIM =
  'import { createRequire } from "module";const require = createRequire(import.meta.url);';

export interface ServiceFunctionProps {
  /** Handler file relative to the repository root, e.g. `functions/ingest/handler.ts`. */
  readonly entry: string;
  /** Exported handler name. Default `handler`. */
  readonly handler?: string;
  /** POWERTOOLS_SERVICE_NAME: names the logs and the `service` dimension of the metrics. */
  readonly serviceName: string;
  readonly description: string;
  readonly timeout: Duration;
  readonly memorySize: number;
  readonly logRetention: RetentionDays;
  /** Names and resource references only: secrets go to Secrets Manager, never here. */
  readonly environment?: Record<string, string>;
  /** Concurrency reserved for (and capping) the function; unreserved when absent. */
  readonly reservedConcurrentExecutions?: number;
  /** Run inside this VPC (the collector, which must reach Prometheus and Nova). */
  readonly vpc?: IVpc;
  readonly vpcSubnets?: SubnetSelection;
  readonly securityGroups?: ISecurityGroup[];
}

export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: props.logRetention });
    // An own role instead of AWSLambdaBasicExecutionRole, whose log permissions cover every log group.
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.serviceName}`,
    });
    logGroup.grantWrite(role);
    // With its own role, a function in a VPC does not get this from CDK; Lambda needs it for the ENIs.
    if (props.vpc) {
      role.addManagedPolicy(
        ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaVPCAccessExecutionRole'),
      );
    }
    super(scope, id, {
      entry: join(PROJECT_ROOT, props.entry),
      handler: props.handler ?? 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      timeout: props.timeout,
      memorySize: props.memorySize,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
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
        // esbuild's sourceMap only writes the maps; Node reads them only with this flag.
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        POWERTOOLS_METRICS_NAMESPACE: METRICS.namespace,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        // The artifact must also load on the Node 20 build machine (bundle test, bench).
        target: 'node20',
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        // Error classes take `name` from the class (PlacidError); Step Functions matches on it.
        keepNames: true,
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_SHIM,
        // Bundle the AWS SDK too: the version is the one in package-lock.json, not the runtime's.
        externalModules: NEVER_LOADED_ON_LAMBDA,
      },
    });
  }
}
