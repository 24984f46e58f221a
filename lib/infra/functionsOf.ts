/**
 * The Lambda functions of a synthesised template, with their bundle directory and their environment
 * resolved to plausible concrete values: what the infra tests, the bundle test and the bundle
 * benchmark need to load a real bundle the way Lambda would. No CDK imports (plain template JSON).
 */
import { join } from 'node:path';

export const FAKE_ACCOUNT = '123456789012';
export const FAKE_REGION = 'us-east-1';

export interface SynthFunction {
  logicalId: string;
  /** Construct path, e.g. `Placid/Ingest/Function`. */
  path: string;
  /** Directory holding index.mjs (and its map), when the app was synthesised with bundling. */
  assetDir?: string;
  /** The function's environment with every reference replaced by a concrete value. */
  environment: Record<string, string>;
}

type Resource = { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> };
type Template = { Resources?: Record<string, Resource> };

/** Every AWS::Lambda::Function of `template`; `assemblyDir` locates the bundles. */
export function functionsOf(template: Template, assemblyDir?: string): SynthFunction[] {
  return Object.entries(template.Resources ?? {})
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([logicalId, r]) => {
      const assetPath = r.Metadata?.['aws:asset:path'];
      const variables =
        (r.Properties?.Environment as { Variables?: Record<string, unknown> })?.Variables ?? {};
      return {
        logicalId,
        path: String(r.Metadata?.['aws:cdk:path'] ?? logicalId).replace(/\/Resource$/, ''),
        assetDir: assemblyDir && typeof assetPath === 'string' ? join(assemblyDir, assetPath) : undefined,
        environment: Object.fromEntries(
          Object.entries(variables).map(([name, value]) => [name, resolveValue(template, name, value)]),
        ),
      };
    });
}

// What a Ref to each resource type returns in CloudFormation, with fake account and region.
const arn = (service: string, resource: string) =>
  `arn:aws:${service}:${FAKE_REGION}:${FAKE_ACCOUNT}:${resource}`;
const REF_VALUE: Record<string, (logicalId: string) => string> = {
  'AWS::SQS::Queue': (id) => `https://sqs.${FAKE_REGION}.amazonaws.com/${FAKE_ACCOUNT}/${id.slice(0, 80)}`,
  'AWS::DynamoDB::GlobalTable': (id) => `placid-${id}`,
  'AWS::DynamoDB::Table': (id) => `placid-${id}`,
  'AWS::StepFunctions::StateMachine': (id) => arn('states', `stateMachine:${id}`),
  'AWS::SNS::Topic': (id) => arn('sns', id),
  'AWS::Lambda::Function': (id) => id,
};

/** A string, a Ref, or `Fn::GetAtt [id, 'Arn']`, as a concrete value; anything else is a test bug. */
function resolveValue(template: Template, name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  const { Ref: ref, 'Fn::GetAtt': getAtt } = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = ref ?? getAtt?.[0];
  const type = id ? template.Resources?.[id]?.Type : undefined;
  if (id && type && getAtt?.[1] === 'Arn') return arn(type.split('::')[1].toLowerCase(), id);
  const resolve = ref && type ? REF_VALUE[type] : undefined;
  if (!id || !resolve)
    throw new Error(`environment variable ${name}: cannot resolve ${JSON.stringify(value)}`);
  return resolve(id);
}
