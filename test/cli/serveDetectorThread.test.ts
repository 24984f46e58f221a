import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DetectorThread, startDetectorThread } from '../../lib/cli/serveDetectorThread.js';
import { LocalPipeline } from '../../lib/local/pipeline.js';
import { tempFiles } from './runCli.js';

// A real store (dynalite over loopback) and the real worker thread, loaded from source through tsx.
let pipeline: LocalPipeline;
beforeAll(async () => {
  pipeline = await LocalPipeline.start({ stages: [] });
});
afterAll(async () => {
  await pipeline?.close();
});

const where = () => ({ endpoint: pipeline.dynamo.endpoint, tableNames: pipeline.dynamo.tableNames });

describe('the serve detector thread', () => {
  let thread: DetectorThread | undefined;
  afterAll(async () => {
    await thread?.close();
  });

  it('runs the detector on the store it is pointed at and answers with its lines', async () => {
    // Prepare
    thread = await startDetectorThread(where());
    // Act
    const run = await thread.run();
    // Assess: an empty store has nothing to detect; the thread read it to say so
    expect(run.error).toBeUndefined();
    expect(run.lines).toEqual([expect.stringMatching(/^no new plan: /)]);
    expect(thread.alive).toBe(true);
  });

  it('ends on close, after which a run is refused instead of waiting forever', async () => {
    // Act
    await thread?.close();
    // Assess
    expect(thread?.alive).toBe(false);
    await expect(thread?.run()).rejects.toThrow(/the detector thread ended/);
  });

  it('fails to start with the config error when the thread cannot read its config', async () => {
    const files = tempFiles('placid-detector-thread-');
    const broken = files.write('broken.json', '{"rebalance": {"mode": "sometimes"}}');
    await expect(startDetectorThread({ ...where(), config: broken })).rejects.toThrow(/mode/);
  });
});
