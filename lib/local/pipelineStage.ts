/** The contract between the local pipeline and its stages (lib/local/pipeline.ts). */

import type { Clock } from '../model/clock.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { LocalDynamo } from './dynalite.js';
import type { SqsBatchHandler } from './eventSourceMapping.js';
import type { LocalSqsQueue } from './sqsQueue.js';

/** What a stage's handler may use: the shared store and clocks, and every stage's queues. */
export interface PipelineResources {
  store: FleetStore;
  dynamo: LocalDynamo;
  /** The stages' wall clock (parsers' skew checks, the store's stamps). */
  wallClock: Pick<Clock, 'now'>;
  /** The queues' clock (visibility timeouts, redelivery). */
  clock: Clock;
  /** Another stage's queues, e.g. to send it work; throws for an unknown stage. */
  queues(stage: string): StageQueues;
}

export interface StageQueues {
  queue: LocalSqsQueue;
  deadLetter: LocalSqsQueue;
}

/** A stage: its queue settings and how to build its handler once the pipeline exists. */
export interface PipelineStage {
  /** Queues are `placid-<name>` and `placid-<name>-dlq`. */
  name: string;
  batchSize?: number;
  /** Invocations in flight at once while the queue drains (EventSourceOptions.maxConcurrency). */
  maxConcurrency?: number;
  /** Receives before SQS moves a message to the dead-letter queue. */
  maxReceiveCount?: number;
  visibilityTimeoutSeconds?: number;
  maxMessageBytes?: number;
  create(resources: PipelineResources, queues: StageQueues): SqsBatchHandler;
}
