/**
 * The simulation's shortcut to the state machine definition (synthesizing the workflow alone, then
 * caching it on disk) must give the definition the whole Placid stack deploys.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aslFromTemplate } from '../../lib/local/workflowRunner.js';
import {
  definitionKey,
  simulationDefinition,
  synthesizeWorkflowOnly,
} from '../../lib/sim/definitionCache.js';
import { buildStack } from '../infra/synth.js';

/** The definition without what the local runner never reads: Task ARNs blanked, comments dropped. */
function executable(definition: unknown): unknown {
  const replace = (key: string, value: unknown) =>
    key === 'Comment' ? undefined : key === 'Resource' ? '-' : value;
  return JSON.parse(JSON.stringify(definition, replace));
}

describe('the simulation state machine definition', () => {
  it('is the whole stack definition, but for the Task ARNs', async () => {
    const { app, stack } = buildStack();
    const full = aslFromTemplate(app.synth().getStackArtifact(stack.artifactId).template);
    const alone = await synthesizeWorkflowOnly();
    expect(Object.keys(alone.States).length).toBeGreaterThan(10);
    expect(executable(alone)).toEqual(executable(full));
  }, 180_000);

  it('is read back from the disk cache as synthesized', async () => {
    const loaded = await simulationDefinition();
    expect(executable(loaded.definition)).toEqual(executable(await synthesizeWorkflowOnly()));
  }, 180_000);

  it('is cached under a key that changes with the infra sources and cdk.json', () => {
    const root = mkdtempSync(join(tmpdir(), 'placid-defkey-'));
    mkdirSync(join(root, 'lib', 'infra'), { recursive: true });
    writeFileSync(join(root, 'lib', 'infra', 'workflowDefinition.ts'), 'export const a = 1;');
    writeFileSync(join(root, 'cdk.json'), '{"context": {}}');
    const first = definitionKey(root);
    writeFileSync(join(root, 'lib', 'infra', 'workflowDefinition.ts'), 'export const a = 2;');
    const second = definitionKey(root);
    writeFileSync(join(root, 'cdk.json'), '{"context": {"flag": true}}');
    expect(new Set([first, second, definitionKey(root)]).size).toBe(3);
  });
});
