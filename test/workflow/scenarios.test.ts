import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { workflowDefinition } from '../../lib/local/workflowRunner.js';
import { DEST, expectCleanEnd, type Harness, migrationsTo, recordOf, SOURCE, startHarness, VM } from './harness.js';

let h: Harness;
// One synthesis for the whole file: every scenario runs this very definition.
beforeAll(() => workflowDefinition(), 240_000);
afterEach(async () => {
  await h?.close();
});

describe('migration workflow against the fake clouds', () => {
  it('drains, live-migrates, verifies, undrains and records a successful migration', async () => {
    // Prepare
    h = await startHarness();
    const migration = h.migration();
    // Act
    const t = Date.now();
    const run = await h.run(migration);
    console.log(Date.now() - t, run);
    // Assess
    expect(run).toMatchObject({ status: 'SUCCEEDED' });
    expect(h.nova.getServer(VM)).toMatchObject({ host: DEST, status: 'ACTIVE' });
    expect(await recordOf(h, migration)).toMatchObject({ status: 'succeeded', source_host: SOURCE, final_host: DEST });
    expect(h.k8s.cluster.pods(K8S)).toHaveLength(1);
    await expectCleanEnd(h, migration);
  });
});
const K8S = 'k8s-web-1';
