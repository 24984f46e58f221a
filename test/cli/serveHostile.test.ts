/** `placid serve` under hostile requests and load (issue 28): no 500 for anything a client can send. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServe, startServe } from '../../lib/cli/serve.js';
import { LocalPipeline } from '../../lib/local/pipeline.js';
import type { AdvisoryAnswer } from '../../lib/schedule/advisory.js';
import type { OmittedEntries } from '../../lib/schedule/answerCap.js';
import { liveHostReport } from '../schedule/fixtures.js';

const silent = { stdout: { write: () => true }, stderr: { write: () => true } };
const flavor = { name: 'm1.small', vcpus: 1, memory_mb: 512 };

/** A store holding `hosts`, each reported just now with 8 GiB free. */
async function storeWith(hosts: string[]): Promise<string> {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'placid-serve-hostile-')), 'store');
  const pipeline = await LocalPipeline.start({ dataDir, stages: [] });
  for (const host of hosts) await pipeline.store.putHostReport(liveHostReport(host, 8192));
  await pipeline.close();
  return dataDir;
}

describe('placid serve under hostile requests', () => {
  let serve: RunningServe;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await storeWith(['cmp-a', 'cmp-b']);
    serve = await startServe({ dataDir, port: 0, io: silent });
  });
  afterAll(async () => {
    await serve.close();
  });

  const post = (body: unknown) => fetch(serve.url, { method: 'POST', body: JSON.stringify(body) });

  it('places a request whose id a header cannot hold, and answers its replay the same (req-€1)', async () => {
    // Act
    const first = await post({ request_id: 'req-€1', flavor });
    const replay = await post({ request_id: 'req-€1', flavor });
    // Assess
    expect([first.status, replay.status]).toEqual([200, 200]);
    const [placed, again] = [(await first.json()) as AdvisoryAnswer, (await replay.json()) as AdvisoryAnswer];
    expect(again.selected).toEqual(placed.selected);
    expect(placed.selected).toHaveLength(1);
    expect(decodeURIComponent(first.headers.get('x-placid-request-id') ?? '')).toBe('req-€1');
    expect(replay.headers.get('x-placid-replayed')).toBe('true');
  });

  it('answers eight concurrent 100,000-candidate requests and a small one beside them, never a 500', async () => {
    // Prepare
    const ghosts = Array.from({ length: 100_000 }, (_, i) => ({ host: `ghost-${i}` }));
    const huge = (i: number) => post({ request_id: `huge-${i}`, flavor, advisory: true, candidates: ghosts });
    // Act
    const bigs = Array.from({ length: 8 }, (_, i) => huge(i));
    const small = await post({
      request_id: 'small-1',
      flavor,
      advisory: true,
      candidates: [{ host: 'cmp-a' }],
    });
    const answers = await Promise.all(bigs);
    // Assess: the small request is taken; each big one is answered, or refused with Retry-After
    expect(small.status).toBe(200);
    for (const a of answers) {
      expect([200, 503]).toContain(a.status);
      if (a.status === 503) expect(a.headers.get('retry-after')).toBe('1');
      else expect(((await a.json()) as { omitted: OmittedEntries }).omitted.unknown).toBe(99_000);
    }
  });

  it('answers /health with the fleet it holds', async () => {
    const health = await fetch(`${serve.url}/health`);
    expect(await health.json()).toEqual({ status: 'ok', replica: false, hosts: 2 });
  });
});
