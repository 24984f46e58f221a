import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../lib/local/dataDirLock.js';
import { ingestPipelineStage } from '../../lib/local/ingestPipelineStage.js';
import { LocalPipeline, type PipelineStage } from '../../lib/local/pipeline.js';
import { ConfigError } from '../../lib/model/errors.js';
import { eventually } from '../helpers/eventually.js';
import { nodeMessage, startPipeline } from './harness.js';

/** A stage that records the bodies it receives and forwards each to `forwardTo`, if given. */
function recorder(name: string, forwardTo?: string): PipelineStage & { seen: string[] } {
  const seen: string[] = [];
  return {
    name,
    seen,
    create: (resources) => async (event) => {
      for (const r of event.Records) {
        seen.push(r.body);
        if (forwardTo) await resources.queues(forwardTo).queue.send(`${r.body}>${name}`);
      }
    },
  };
}

describe('LocalPipeline', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'placid-pipeline-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('drains stages that feed each other until every queue is empty', async () => {
    // Prepare
    const first = recorder('first', 'second');
    const second = recorder('second');
    const pipeline = await startPipeline({ stages: [second, first] });
    try {
      await pipeline.send('first', ['a', 'b']);
      // Act
      const drained = await pipeline.drain();
      // Assess
      expect(second.seen).toEqual(['a>first', 'b>first']);
      expect(drained.first.batches).toBe(1);
      expect(drained.second.batches).toBe(1);
    } finally {
      await pipeline.close();
    }
  });

  it('attaches a stage registered after start beside the ingest stage', async () => {
    // Prepare
    const pipeline = await startPipeline();
    const probe = recorder('probe');
    try {
      // Act
      pipeline.add(probe);
      await pipeline.send('probe', ['hello']);
      await pipeline.drain();
      // Assess
      expect(pipeline.stageNames()).toEqual(['ingest', 'probe']);
      expect(probe.seen).toEqual(['hello']);
    } finally {
      await pipeline.close();
    }
  });

  it('refuses a second stage with the same name', async () => {
    // Prepare
    const pipeline = await startPipeline();
    try {
      // Act
      const act = () => pipeline.add(ingestPipelineStage());
      // Assess
      expect(act).toThrow(new ConfigError('pipeline already has a stage named ingest'));
    } finally {
      await pipeline.close();
    }
  });

  it('names the stages it has when asked for one it lacks', async () => {
    // Prepare
    const pipeline = await startPipeline();
    try {
      // Act
      const act = () => pipeline.queues('schedule');
      // Assess
      expect(act).toThrow(/no stage named schedule \(stages: ingest\)/);
    } finally {
      await pipeline.close();
    }
  });

  it('refuses to ingest through an ingest stage that keeps no tally', async () => {
    // Prepare
    const pipeline = await startPipeline({ stages: [recorder('ingest')] });
    try {
      // Act
      const run = pipeline.ingest([nodeMessage('x')]);
      // Assess
      await expect(run).rejects.toThrow(/ingest stage keeps no tally; build it with ingestPipelineStage\(\)/);
    } finally {
      await pipeline.close();
    }
  });

  it('keeps what it stored on disk for the next run', async () => {
    // Prepare
    const dataDir = tempDir();
    const writer = await startPipeline({ dataDir });
    await writer.ingest([nodeMessage('kept', 1)]);
    await writer.close();
    // Act
    const reader = await startPipeline({ dataDir });
    try {
      // Assess
      expect((await reader.store.getHost('kept'))?.reported_at).toBeDefined();
      expect(await reader.store.instancesByHost('kept')).toHaveLength(1);
    } finally {
      await reader.close();
    }
  });

  it('shares a data directory another pipeline has open: each reads what the other wrote', async () => {
    // Prepare
    const dataDir = tempDir();
    const first = await startPipeline({ dataDir });
    try {
      // Act
      const second = await startPipeline({ dataDir });
      try {
        await first.ingest([nodeMessage('from-first', 1)]);
        await second.ingest([nodeMessage('from-second', 1)]);
        // Assess
        expect(await second.store.getHost('from-first')).toBeDefined();
        expect(await first.store.getHost('from-second')).toBeDefined();
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });

  it('refuses a data directory that holds other files and no store', async () => {
    // Prepare
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'notes.txt'), 'mine');
    // Act
    const start = LocalPipeline.start({ dataDir });
    // Assess
    await expect(start).rejects.toThrow(
      new ConfigError(
        `${dataDir} holds other files and no placid store; pass an empty or new directory as --data-dir`,
      ),
    );
  });

  it('takes over the lock of a process that died, and gives it up when no one uses the store', async () => {
    // Prepare
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'placid.lock'), '2147483646');
    // Act
    const pipeline = await startPipeline({ dataDir });
    // Assess: a live store server holds it now, with the endpoint the pipeline uses
    try {
      const holder = JSON.parse(readFileSync(join(dataDir, 'placid.lock'), 'utf8'));
      expect(holder.pid).not.toBe(2147483646);
      expect(isAlive(holder.pid)).toBe(true);
      expect(holder.endpoint).toBe(pipeline.dynamo.endpoint);
    } finally {
      await pipeline.close();
    }
    await eventually(() => !existsSync(join(dataDir, 'placid.lock')), 15_000, 'the idle server to exit');
  });
});
