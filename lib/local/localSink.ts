/**
 * The local pipeline as a sink: the real ingest stage on dynalite, like `placid ingest`, whose store
 * `placid fleet` reads. The store is opened for each run's messages and closed right after, so
 * `placid fleet` can read it between the runs of `placid collect --interval` (one process at a time
 * may hold a data directory). A local stand-in, so collect (and the Lambda bundle) never pulls in dynalite.
 */
import type { ReportSink } from '../collect/sink.js';

/** The local pipeline on `dataDir` (in memory when undefined, which keeps nothing between runs). */
export function localSink(dataDir: string | undefined): ReportSink {
  return {
    target: dataDir === undefined ? 'the in-memory local store' : `the local store at ${dataDir}`,
    async send(bodies) {
      // Loaded only here, so a queue-only run never loads dynalite.
      const { LocalPipeline } = await import('./pipeline.js');
      const pipeline = await LocalPipeline.start({ dataDir });
      try {
        const report = await pipeline.ingest(bodies);
        return {
          sent: bodies.length - report.rejected.length,
          rejected: report.rejected.map((r) => ({ message: r.index + 1, reason: r.reason })),
        };
      } finally {
        await pipeline.close();
      }
    },
    async close() {},
  };
}
