import { it } from 'vitest';
import { startHarness } from './harness.js';
it('debug', async () => {
  const h = await startHarness();
  const t = Date.now();
  const run = await h.run(h.migration(), { beforeStep: (r) => console.log('step', r.step, Date.now() - t, JSON.stringify({f: r.state.failure, p: r.state.poll?.phase}).slice(0, 600)) });
  console.log(JSON.stringify(run, null, 1).slice(0, 5000));
  await h.close();
}, 400_000);
