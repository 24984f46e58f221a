import type { Context, SQSEvent } from 'aws-lambda';
import { ConfigError } from '../model/errors.js';
import { interpretBatchResponse } from './batchResponse.js';
import { makeLambdaContext } from './lambdaContext.js';
import type { LocalSqsQueue } from './sqsQueue.js';

/**
 * An SQS-triggered Lambda handler (a middy-wrapped one fits). Its reply should be an
 * `SQSBatchResponse` or nothing; anything else is judged as Lambda would (see interpretBatchResponse).
 */
export type SqsBatchHandler = (event: SQSEvent, context: Context) => Promise<unknown>;

export interface EventSourceOptions {
  /** Records per invocation, 1..10000 as for a standard queue. Default 10. */
  batchSize?: number;
  /** Honour `batchItemFailures` (FunctionResponseTypes: ReportBatchItemFailures). Default true. */
  reportBatchItemFailures?: boolean;
  functionName?: string;
  timeoutMs?: number;
  /**
   * Invocations in flight at once during a drain, as Lambda's SQS pollers run several batches
   * concurrently (the mapping's ScalingConfig.MaximumConcurrency, 2..1000). Default 1: one at a time.
   */
  maxConcurrency?: number;
}

export interface QueueDrainOptions {
  /** Invocations (and clock jumps) before giving up, so a handler that always fails cannot loop forever. */
  maxIterations?: number;
  /** Wait (on the queue's clock) for invisible messages to come back, instead of stopping. */
  waitForInvisible?: boolean;
}

export interface QueueDrainResult {
  batches: number;
  /** Why it stopped: nothing left, only invisible messages left, or the iteration guard. */
  stoppedBy: 'empty' | 'invisible' | 'max-iterations';
  /** Errors the handler threw; Lambda would log them and retry the batch. */
  handlerErrors: unknown[];
}

export interface BatchDelivery {
  messageIds: string[];
  failedIds: Set<string>;
  /** Why the whole batch failed, when it did. */
  wholeBatch?: string;
  error?: unknown;
}

/** The Lambda poller: receives batches from a local queue, invokes the handler, deletes the successes. */
export class EventSourceMapping {
  private readonly batchSize: number;
  private readonly concurrency: number;

  constructor(
    private readonly queue: LocalSqsQueue,
    private readonly handler: SqsBatchHandler,
    private readonly options: EventSourceOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 10;
    if (!(Number.isInteger(this.batchSize) && this.batchSize >= 1 && this.batchSize <= 10_000)) {
      throw new ConfigError(`event source for ${queue.name}: batchSize must be an integer 1..10000`);
    }
    this.concurrency = options.maxConcurrency ?? 1;
    if (!(Number.isInteger(this.concurrency) && this.concurrency >= 1 && this.concurrency <= 1000)) {
      throw new ConfigError(`event source for ${queue.name}: maxConcurrency must be an integer 1..1000`);
    }
  }

  /** One poll: receive a batch and invoke the handler; undefined when nothing was visible. */
  async deliverBatch(): Promise<BatchDelivery | undefined> {
    const records = this.queue.receive(this.batchSize);
    if (records.length === 0) return undefined;
    const messageIds = records.map((r) => r.messageId);
    const context = makeLambdaContext({
      functionName: this.options.functionName ?? `${this.queue.name}-consumer`,
      timeoutMs: this.options.timeoutMs,
      clock: this.queue.clock,
    });
    let delivery: BatchDelivery;
    try {
      const reply = await this.handler({ Records: records }, context);
      const verdict = interpretBatchResponse(
        messageIds,
        this.options.reportBatchItemFailures === false ? null : reply,
      );
      delivery = { messageIds, ...verdict };
    } catch (error) {
      delivery = { messageIds, failedIds: new Set(messageIds), wholeBatch: 'the handler threw', error };
    }
    this.queue.settle(records, delivery.failedIds);
    return delivery;
  }

  /**
   * Polls until the queue is empty or only invisible messages remain (or waits for them; see
   * options), with up to `maxConcurrency` invocations in flight.
   */
  async drain(options: QueueDrainOptions = {}): Promise<QueueDrainResult> {
    let budget = options.maxIterations ?? 10_000;
    const handlerErrors: unknown[] = [];
    let batches = 0;
    // One poller: invokes batch after batch until nothing is visible; each poll spends an iteration.
    const poller = async () => {
      while (budget > 0) {
        budget--;
        const delivery = await this.deliverBatch();
        if (!delivery) return;
        batches++;
        if ('error' in delivery) handlerErrors.push(delivery.error);
      }
    };
    for (;;) {
      await Promise.all(Array.from({ length: this.concurrency }, poller));
      if (budget <= 0) return { batches, stoppedBy: 'max-iterations', handlerErrors };
      const next = this.queue.nextVisibleAt();
      if (next === undefined) return { batches, stoppedBy: 'empty', handlerErrors };
      // Visible already: a handler sent it after the pollers found the queue empty.
      if (next <= this.queue.clock.now()) continue;
      if (!options.waitForInvisible) return { batches, stoppedBy: 'invisible', handlerErrors };
      await this.queue.clock.sleep(next - this.queue.clock.now());
    }
  }
}
