import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DETECT_ENV, readDetectEnv } from '../../functions/detect/env.js';
import { DETECT_METRICS, recordRun } from '../../functions/detect/metrics.js';
import { INGEST_ENV, loadIngestConfig } from '../../functions/ingest/config.js';
import { readScheduleEnv, SCHEDULE_ENV } from '../../functions/schedule/env.js';
import { recordAdvisoryMetrics, recordDecisionMetrics } from '../../functions/schedule/metrics.js';
import { metrics, recordBatchCounts } from '../../functions/shared/powertools.js';
import { FAKE_REGION, functionsOf, type SynthFunction } from '../../lib/infra/functionsOf.js';
import { METRICS, RUNTIME_ENV } from '../../lib/infra/runtimeEnv.js';
import { makeLambdaContext } from '../../lib/local/lambdaContext.js';
import type { AdvisoryOutcome } from '../../lib/schedule/advisory.js';
import type { ScheduleOutcome } from '../../lib/schedule/core.js';
import { synthTemplate } from './synth.js';

// The stack and the handlers agree on environment variable and metric names.
let functions: SynthFunction[];
beforeAll(() => {
  functions = functionsOf(synthTemplate().toJSON());
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** What the Lambda runtime sees: the function's variables plus the region Lambda sets. */
const runtimeEnv = (logicalIdPrefix: string): NodeJS.ProcessEnv => {
  const fn = functions.find((f) => f.logicalId.startsWith(logicalIdPrefix))!;
  return { AWS_REGION: FAKE_REGION, ...fn.environment };
};
const published = (): string[] => vi.mocked(metrics.addMetric).mock.calls.map(([name]) => name);

describe('environment contract', () => {
  it('gives the ingest function every variable its config requires', () => {
    const env = runtimeEnv('IngestFunction');
    const config = loadIngestConfig(env);
    expect(config.deadLetterQueueUrl).toMatch(/IngestDeadLetter/);
    expect([config.tables.hosts, config.tables.instances, config.tables.samples]).toEqual([
      env.PLACID_TABLE_HOSTS,
      env.PLACID_TABLE_INSTANCES,
      env.PLACID_TABLE_SAMPLES,
    ]);
  });

  it('gives the schedule queue consumer its tables, reply queue and dead-letter queue', () => {
    const env = runtimeEnv('ScheduleQueueFunction');
    const settings = readScheduleEnv(env, { queues: true });
    expect(settings.replyQueueUrl).toMatch(/ScheduleRepliesQueue/);
    expect(settings.deadLetterQueueUrl).toMatch(/ScheduleRequestsDeadLetter/);
    expect(settings.tables.decisions).toBe(env.PLACID_TABLE_DECISIONS);
  });

  it('gives the schedule URL function its tables', () => {
    const env = runtimeEnv('ScheduleHttpFunction');
    expect(readScheduleEnv(env, { queues: false }).tables.hosts).toBe(env.PLACID_TABLE_HOSTS);
  });

  it('names a function’s own dead-letter queue the same way in every stage', () => {
    expect(new Set([INGEST_ENV.deadLetterQueueUrl, SCHEDULE_ENV.deadLetterQueueUrl])).toEqual(
      new Set([RUNTIME_ENV.deadLetterQueueUrl]),
    );
  });

  it('gives the detector its tables and the plan queue, and nothing it would have to guess', () => {
    const env = runtimeEnv('DetectFunction');
    const settings = readDetectEnv(env);
    expect(settings.planQueueUrl).toMatch(/PlansQueue/);
    expect(settings.tables.plans).toBe(env.PLACID_TABLE_PLANS);
    expect(settings.tables.leases).toBe(env.PLACID_TABLE_LEASES);
  });

  it('leaves the detector’s [rebalance] and scheduler options unset when the context has none', () => {
    const env = runtimeEnv('DetectFunction');
    expect([env[DETECT_ENV.rebalanceSettings], env[DETECT_ENV.schedulerConfig]]).toEqual([
      undefined,
      undefined,
    ]);
  });
});

describe('metric contract', () => {
  it('graphs the batch counters every stage publishes', () => {
    vi.spyOn(metrics, 'addMetric');
    recordBatchCounts({ stored: 1, rejected: 0, retried: 0 });
    expect(published()).toEqual([...METRICS.batch]);
  });

  it('graphs the decision counters the schedule stage publishes', () => {
    vi.spyOn(metrics, 'addMetric');
    const decided = (error?: string) =>
      ({ replayed: false, decision: { error }, claim_conflicts: 0 }) as unknown as ScheduleOutcome;
    recordDecisionMetrics(decided());
    recordDecisionMetrics(decided('NoValidHost'));
    expect(new Set(published())).toEqual(new Set(METRICS.schedule));
  });

  it('graphs the advisory counters the schedule stage publishes for the plug-in', () => {
    vi.spyOn(metrics, 'addMetric');
    recordAdvisoryMetrics({ answer: { candidates: [], unknown: [] } } as unknown as AdvisoryOutcome);
    expect(published()).toEqual([...METRICS.advisory]);
  });

  it('graphs every counter the detector publishes', () => {
    expect(new Set([METRICS.detectorRuns, ...METRICS.detector])).toEqual(
      new Set(Object.values(DETECT_METRICS)),
    );
  });

  it('alarms on a heartbeat the detector publishes for every run, even one with nothing to do', () => {
    vi.spyOn(metrics, 'addMetric');
    recordRun({ plan: null, sent: [], expired: [], idle: 'nothing suffering' });
    expect(published()).toContain(METRICS.detectorRuns);
  });

  it('alarms on a counter the ingest handler publishes for every batch, even an empty one', async () => {
    for (const [name, value] of Object.entries(runtimeEnv('IngestFunction'))) vi.stubEnv(name, value);
    const { handler } = await import('../../functions/ingest/handler.js');
    vi.spyOn(metrics, 'addMetric');
    await handler({ Records: [] } as SQSEvent, makeLambdaContext({ functionName: 'ingest' }) as Context);
    expect(published()).toEqual(expect.arrayContaining([METRICS.reportsStored, ...METRICS.ingest]));
  });
});
