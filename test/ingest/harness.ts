/** A local pipeline on in-memory dynalite whose clock is pinned at NOW, and report documents for it. */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type IngestPipelineStageOptions, ingestPipelineStage } from '../../lib/local/ingestPipelineStage.js';
import { LocalPipeline, type LocalPipelineOptions, type PipelineStage } from '../../lib/local/pipeline.js';
import { ManualClock } from '../../lib/model/clock.js';
import { pageContent } from '../../lib/store/samplePages.js';
import { hypervisorDoc, instanceDoc, messageDoc, NOW } from '../store/fixtures.js';

export { at, hypervisorDoc, instanceDoc, messageDoc, NOW } from '../store/fixtures.js';

type Doc = Record<string, unknown>;

export function startPipeline(
  options: LocalPipelineOptions & { ingest?: IngestPipelineStageOptions; stage?: PipelineStage } = {},
): Promise<LocalPipeline> {
  return LocalPipeline.start({
    wallClock: new ManualClock(NOW),
    ...options,
    store: { retry: { sleep: async () => {} }, ...options.store },
    stages: options.stages ?? [options.stage ?? ingestPipelineStage(options.ingest)],
  });
}

/** A JSON message body. */
export const body = (hypervisors: Doc[] = [], instances: Doc[] = []): string =>
  JSON.stringify(messageDoc(hypervisors, instances));

/** Host `name` with one sample, and `vms` instances on it (uuids `<name>-vm<i>`), each with one sample. */
export function nodeMessage(name: string, vms = 1, reportedAt?: string): string {
  const time = reportedAt ? { reported_at: reportedAt } : {};
  return body(
    [hypervisorDoc({ host: name, nodename: name, ...time })],
    Array.from({ length: vms }, (_, i) =>
      instanceDoc({ uuid: `${name}-vm${i}`, host: name, nodename: name, ...time }),
    ),
  );
}

/** Every item of a table (a Scan; tables here are small). */
export async function scanTable(pipeline: LocalPipeline, table: 'hosts' | 'instances' | 'samples') {
  const { Items } = await pipeline.dynamo.client.send(
    new ScanCommand({ TableName: pipeline.dynamo.tableNames[table] }),
  );
  return Items ?? [];
}

/** The sample pages stored (not the window digests written beside them). */
export async function samplePages(pipeline: LocalPipeline) {
  return (await scanTable(pipeline, 'samples')).filter((item) => String(item.entity).startsWith('host/'));
}

/** Samples held by all sample pages (a page carries a node's samples and its VMs'). */
export async function storedSampleCount(pipeline: LocalPipeline): Promise<number> {
  let n = 0;
  for (const item of await scanTable(pipeline, 'samples')) {
    const { host, instances } = pageContent(item);
    n += host.length + [...instances.values()].reduce((sum, s) => sum + s.length, 0);
  }
  return n;
}
