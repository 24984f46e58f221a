import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { it } from 'vitest';
import { PlacidStack } from '../../lib/infra/placidStack.js';
it('nag', () => {
  let t = Date.now();
  const app0 = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const s0 = new PlacidStack(app0, 'Placid', { env: { account: '123456789012', region: 'us-east-1' } });
  console.log('construct', Date.now() - t); t = Date.now();
  const tpl = Template.fromStack(s0);
  console.log('synth', Date.now() - t); t = Date.now();
  const sm = Object.values(tpl.findResources('AWS::StepFunctions::StateMachine'));
  console.log('sms', sm.length);
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  new PlacidStack(app, 'Placid', { env: { account: '123456789012', region: 'us-east-1' } });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try { app.synth(); console.log('NAG OK'); } catch (e) { console.log('NAG', String((e as Error).message).slice(0, 6000)); }
  console.log('nag', Date.now() - t);
});
