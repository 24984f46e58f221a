/**
 * `placid serve --replica` against DynamoDB tables served by another process (dynalite as a
 * server in a child process), with ingest writing at the same time (issue 28).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynaliteProcess, startDynaliteProcess } from '../../bench/dynaliteProcess.js';
import { type RunningServe, startServe } from '../../lib/cli/serve.js';
import { LocalPipeline } from '../../lib/local/pipeline.js';
import type { AdvisoryAnswer } from '../../lib/schedule/advisory.js';
import { liveHostReport } from '../schedule/fixtures.js';
import { runCli } from './runCli.js';

const silent = { stdout: { write: () => true }, stderr: { write: () => true } };
const flavor = { name: 'm1.small', vcpus: 1, memory_mb: 512 };
const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'replica-test',
  AWS_SECRET_ACCESS_KEY: 'replica-test',
  AWS_REGION: 'eu-west-1',
};

let dynalite: DynaliteProcess;
/** The deployment's side: the tables (created as the stack would) and ingest writing to them. */
let writer: LocalPipeline;
let replica: RunningServe;
const saved = { ...process.env };

beforeAll(async () => {
  dynalite = await startDynaliteProcess();
  writer = await LocalPipeline.start({ endpoint: dynalite.endpoint, stages: [] });
  for (const host of ['cmp-a', 'cmp-b']) await writer.store.putHostReport(liveHostReport(host, 8192));
  // The SDK's own chain: credentials, region and endpoint from the environment, as on a scheduler host.
  Object.assign(process.env, CREDENTIALS, { AWS_ENDPOINT_URL_DYNAMODB: dynalite.endpoint });
  replica = await startServe({ replica: {}, port: 0, io: silent, staleAfterMs: 1500 });
});

afterAll(async () => {
  await replica?.close();
  await writer?.close().catch(() => undefined);
  dynalite?.child.kill();
  process.env = saved;
});

const ask = (id: string, hosts: string[]) =>
  fetch(replica.url, {
    method: 'POST',
    body: JSON.stringify({
      request_id: id,
      flavor,
      advisory: true,
      candidates: hosts.map((host) => ({ host })),
    }),
  });

describe('placid serve --replica', () => {
  it('answers advisory requests from the deployed tables and records nothing', async () => {
    // Act
    const answer = await ask('rep-1', ['cmp-a', 'cmp-b', 'ghost']);
    // Assess
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as AdvisoryAnswer;
    expect(body.candidates.map((c: { host: string; passes: boolean }) => [c.host, c.passes])).toEqual([
      ['cmp-a', true],
      ['cmp-b', true],
    ]);
    expect(body.unknown).toEqual([{ host: 'ghost', nodename: 'ghost' }]);
    expect(await writer.store.getDecision('rep-1')).toBeUndefined();
  });

  it('refuses a request to place (it would claim), 400 naming why', async () => {
    const answer = await fetch(replica.url, {
      method: 'POST',
      body: JSON.stringify({ request_id: 'rep-p', flavor }),
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain(
      'read-only replica',
    );
  });

  it('sees hosts ingest writes after it started, answering every request while the writes go on', async () => {
    // Prepare: ingest keeps writing reports (new hosts, then the same again)
    const names = Array.from({ length: 40 }, (_, i) => `late-${i}`);
    let writing = true;
    const writes = (async () => {
      while (writing) {
        for (const host of names) await writer.store.putHostReport(liveHostReport(host, 4096));
        // A report that changed nothing is not written again: yield, as a real ingest would between batches.
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    // Act: ask until the replica knows the last of them (its snapshot refreshes every second)
    const statuses: number[] = [];
    let known = false;
    for (let i = 0; i < 100 && !known; i++) {
      const answer = await ask(`rep-late-${i}`, names);
      statuses.push(answer.status);
      known = ((await answer.json()) as AdvisoryAnswer).unknown.length === 0;
      await new Promise((r) => setTimeout(r, 100));
    }
    writing = false;
    await writes;
    // Assess
    expect(known).toBe(true);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('answers on its last snapshot when the tables stop answering, and says it is stale after the bound', async () => {
    // Prepare
    expect(await (await fetch(`${replica.url}/health`)).json()).toMatchObject({
      status: 'ok',
      replica: true,
    });
    // Act: the store's process dies (an AWS outage, as the replica sees it)
    dynalite.child.kill();
    let health = { status: 'ok' } as { status: string; stale?: { age_seconds: number; reason: string } };
    for (let i = 0; i < 100 && health.status === 'ok'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      health = (await (await fetch(`${replica.url}/health`)).json()) as typeof health;
    }
    const answer = await ask('rep-outage', ['cmp-a']);
    // Assess
    expect(health.status).toBe('stale');
    expect(health.stale?.reason).toMatch(/not answering/);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as AdvisoryAnswer;
    expect(body.candidates).toEqual([expect.objectContaining({ host: 'cmp-a', passes: true })]);
    expect(body.stale_snapshot?.age_seconds).toBeGreaterThanOrEqual(1);
  });

  it('refuses --replica with a local store, exit 2', async () => {
    const run = await runCli(['serve', '--replica', '--data-dir', '/tmp/x']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--replica reads the deployed tables');
  });
});
