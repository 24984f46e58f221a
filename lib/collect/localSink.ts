/**
 * The local pipeline as a sink: the real ingest stage on dynalite, like `placid ingest`, whose store
 * `placid fleet` reads. Its own module, so the Lambda bundle never pulls in dynalite.
 */
import type { LocalPipeline } from '../local/pipeline.js';
import type { ReportSink } from './sink.js';

/** The local pipeline on `dataDir` (in memory when undefined), started on first use. */
export function localSink(dataDir: string | undefined): ReportSink & { pipeline(): Promise<LocalPipeline> } {
  let started: Promise<LocalPipeline> | undefined;
  const pipeline = () => {
    // Loaded only here, so a queue-only run never loads dynalite.
    started ??= import('../local/pipeline.js').then(({ LocalPipeline }) => LocalPipeline.start({ dataDir }));
    return started;
  };
  return {
    target: dataDir === undefined ? 'the in-memory local store' : `the local store at ${dataDir}`,
    pipeline,
    async send(bodies) {
      const report = await (await pipeline()).ingest(bodies);
      return {
        sent: bodies.length - report.rejected.length,
        rejected: report.rejected.map((r) => ({ message: r.index + 1, reason: r.reason })),
      };
    },
    async close() {
      if (started) await (await started).close();
    },
  };
}
