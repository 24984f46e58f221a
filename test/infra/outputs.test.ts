import { describe, expect, it } from 'vitest';
import { synthTemplate } from './synth.js';

describe("the stack's outputs", () => {
  it('are named as the docs and `placid agent --help` name them, with no construct path or hash', () => {
    const outputs = Object.keys(synthTemplate().findOutputs('*'));
    for (const name of [
      'AgentActivityArn',
      'AgentPolicyArn',
      'PlanQueueUrl',
      'StateMachineArn',
      'IngestQueueUrl',
      'ReportSenderPolicyArn',
      'ScheduleUrl',
    ]) {
      expect(outputs, name).toContain(name);
    }
    for (const name of outputs) expect(name).not.toMatch(/[0-9A-F]{8}$/);
  });
});
