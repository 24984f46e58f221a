/**
 * Placid's serverless pipeline, assembled in this process: dynalite for DynamoDB, in-process SQS
 * queues (each with a dead-letter queue), and the real stage handlers attached to them. Stages are
 * registered by name, so the schedule stage, the detector or a simulation can join without
 * changing this file: `pipeline.add(myStage)`. The CLI runs it on disk (`--data-dir`); tests in memory.
 */

import { type Clock, systemClock } from '../model/clock.js';
import { ConfigError } from '../model/errors.js';
import type { BatchSendResult, OutgoingMessage } from '../queue/port.js';
import type { StoreOptions } from '../store/context.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { LocalDynamo } from './dynalite.js';
import { FastForwardClock } from './fastForwardClock.js';
import { ingestPipelineStage } from './ingestPipelineStage.js';
import { type IngestReport, runIngest } from './ingestRun.js';
import { type LocalStore, openLocalStore } from './localStore.js';
import type { PipelineResources, PipelineStage, StageQueues } from './pipelineStage.js';
import { LocalSqsQueue } from './sqsQueue.js';

export type { PipelineResources, PipelineStage, StageQueues } from './pipelineStage.js';

export interface LocalPipelineOptions {
  /** Keep DynamoDB on disk here; in memory when absent. (Queues always live in memory.) */
  dataDir?: string;
  /** Use a DynamoDB endpoint that is already running instead of starting dynalite. */
  endpoint?: string;
  /** The stages' clock (parsers' skew checks, the store's stamps). Default: the system clock. */
  wallClock?: Pick<Clock, 'now'>;
  /** The queues' clock. Default: real time that skips ahead instead of waiting out visibility timeouts. */
  clock?: Clock;
  /** Store tunables (retry policy, retention, concurrency). */
  store?: Partial<Omit<StoreOptions, 'doc' | 'tables'>>;
  /** Default: just the ingest stage. */
  stages?: readonly PipelineStage[];
  /** Run dynalite in a worker thread, on another core (dynaliteThread.ts). */
  dynaliteThread?: boolean;
}

export interface StageDrain {
  batches: number;
  handlerErrors: unknown[];
}

/** Rounds of "drain every stage" before giving up (a stage feeding another counts one round each). */
const MAX_DRAIN_ROUNDS = 100;

export class LocalPipeline {
  private readonly stages = new Map<string, { stage: PipelineStage; queues: StageQueues }>();
  readonly resources: PipelineResources;

  readonly dynamo: LocalDynamo;
  readonly store: FleetStore;

  private constructor(
    private readonly local: LocalStore,
    wallClock: Pick<Clock, 'now'>,
    readonly clock: Clock,
  ) {
    this.dynamo = local.dynamo;
    this.store = local.store;
    this.resources = {
      store: this.store,
      dynamo: this.dynamo,
      wallClock,
      clock,
      queues: (name) => this.queues(name),
    };
  }

  static async start(options: LocalPipelineOptions = {}): Promise<LocalPipeline> {
    const wallClock = options.wallClock ?? systemClock;
    const local = await openLocalStore({
      dataDir: options.dataDir,
      endpoint: options.endpoint,
      store: { clock: wallClock, ...options.store },
      dynaliteThread: options.dynaliteThread,
    });
    const pipeline = new LocalPipeline(local, wallClock, options.clock ?? new FastForwardClock());
    for (const stage of options.stages ?? [ingestPipelineStage()]) pipeline.add(stage);
    return pipeline;
  }

  /** Registers a stage: creates its queue and dead-letter queue and attaches its handler. */
  add(stage: PipelineStage): StageQueues {
    if (this.stages.has(stage.name))
      throw new ConfigError(`pipeline already has a stage named ${stage.name}`);
    const deadLetter = new LocalSqsQueue({ name: `placid-${stage.name}-dlq`, clock: this.clock });
    const queue = new LocalSqsQueue({
      name: `placid-${stage.name}`,
      clock: this.clock,
      visibilityTimeoutSeconds: stage.visibilityTimeoutSeconds,
      maxMessageBytes: stage.maxMessageBytes,
      redrive: { deadLetterQueue: deadLetter, maxReceiveCount: stage.maxReceiveCount ?? 5 },
    });
    const queues = { queue, deadLetter };
    this.stages.set(stage.name, { stage, queues });
    queue.attach(stage.create(this.resources, queues), {
      batchSize: stage.batchSize,
      maxConcurrency: stage.maxConcurrency,
      functionName: `placid-${stage.name}`,
    });
    return queues;
  }

  stage(name: string): PipelineStage {
    return this.entry(name).stage;
  }

  queues(name: string): StageQueues {
    return this.entry(name).queues;
  }

  stageNames(): string[] {
    return [...this.stages.keys()];
  }

  /** Enqueues messages for a stage (nothing runs until `drain`). */
  send(stage: string, messages: readonly (string | OutgoingMessage)[]): Promise<BatchSendResult> {
    return this.queues(stage).queue.sendBatch(messages);
  }

  /**
   * Runs every stage until no queue has work left, redeliveries included (the clock skips the
   * visibility timeouts); a message that keeps failing ends in its dead-letter queue.
   */
  async drain(): Promise<Record<string, StageDrain>> {
    const out: Record<string, StageDrain> = {};
    for (const name of this.stages.keys()) out[name] = { batches: 0, handlerErrors: [] };
    for (let round = 0; round < MAX_DRAIN_ROUNDS; round++) {
      let batches = 0;
      for (const [name, { queues }] of this.stages) {
        const result = await queues.queue.drain({ waitForInvisible: true });
        out[name].batches += result.batches;
        out[name].handlerErrors.push(...result.handlerErrors);
        batches += result.batches;
      }
      if (batches === 0) return out;
    }
    throw new ConfigError(
      `pipeline still busy after ${MAX_DRAIN_ROUNDS} drain rounds: do stages feed each other in a loop?`,
    );
  }

  /** Sends report messages to the ingest stage, drains, and says what became of each. */
  ingest(messages: readonly (string | OutgoingMessage)[]): Promise<IngestReport> {
    return runIngest(this, messages);
  }

  /** Stops dynalite (flushing an on-disk store) and releases the data directory. */
  close(): Promise<void> {
    return this.local.close();
  }

  private entry(name: string) {
    const entry = this.stages.get(name);
    if (!entry) {
      throw new ConfigError(
        `pipeline has no stage named ${name} (stages: ${this.stageNames().join(', ') || 'none'})`,
      );
    }
    return entry;
  }
}
