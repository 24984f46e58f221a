/**
 * Builds the stack the way `cdk synth` does (cdk.json's feature flags). The default template is
 * synthesised once per test process and shared; other options build a stack of their own.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { cdkJsonContext } from '../../bench/bundle.js';
import { FAKE_ACCOUNT, FAKE_REGION } from '../../lib/infra/functionsOf.js';
import { PlacidStack } from '../../lib/infra/placidStack.js';

export interface SynthOptions {
  /** Extra context, e.g. `{ 'placid:maxReceiveCount': 3 }`. */
  context?: Record<string, unknown>;
  /** Run esbuild for real (slow); by default bundling is skipped. */
  bundle?: boolean;
}

export function buildStack(options: SynthOptions = {}): { app: App; stack: PlacidStack } {
  const app = new App({
    // CDK's built-in CloudFormation validation starts a WebAssembly rule engine (seconds of CPU per
    // test file); `npx cdk synth` runs it, the tests rely on Template assertions and cdk-nag.
    builtinCloudFormationValidation: false,
    context: {
      // The feature flags pinned in cdk.json, so tests see the template a deploy would.
      ...cdkJsonContext(),
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      ...options.context,
    },
  });
  const stack = new PlacidStack(app, 'Placid', { env: { account: FAKE_ACCOUNT, region: FAKE_REGION } });
  return { app, stack };
}

let shared: Template | undefined;

export function synthTemplate(options?: SynthOptions): Template {
  if (options) return Template.fromStack(buildStack(options).stack);
  shared ??= Template.fromStack(buildStack().stack);
  return shared;
}
