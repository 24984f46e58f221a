/**
 * The CDK app (cdk.json runs it with tsx). `npx cdk synth --no-notices` builds the template offline;
 * the account and region come from the CLI's credentials at deploy time.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PlacidStack } from '../lib/infra/placidStack.js';
import { ConfigError } from '../lib/model/errors.js';

const app = new App();
try {
  new PlacidStack(app, 'Placid', {
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
} catch (error) {
  // A bad context value: say which setting, without a stack trace.
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
// Unacknowledged AwsSolutions findings fail the synth, as they fail the tests.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
