/**
 * The plan starter's core: one execution per plan message, named after the migration id, so a
 * redelivered message finds its execution already there (and that counts as done). Executions are
 * started only while fewer than `maxConcurrent` run; over the limit, the message goes back to the
 * queue and, its visibility shortened to planWaitSeconds, is tried again within seconds of a slot
 * freeing. The leases inside the workflow stay the hard limit; this only keeps executions from piling
 * up to wait for them.
 */
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { Clock } from '../model/clock.js';
import { PlacidError } from '../model/errors.js';
import { type MigrationInput, parseMigrationInput } from '../model/migration.js';
import { parseJsonBody } from '../queue/jsonBody.js';
import type { MessageQueue, VisibilityControl } from '../queue/port.js';
import { type BatchLogger, type BatchOutcome, processSqsBatch } from '../queue/processBatch.js';
import { executionNameFor } from './input.js';
import { planWaitSeconds } from './planQueueRetry.js';

/** The Step Functions calls the starter makes (see sfnExecutions.ts for the SDK adapter). */
export interface Executions {
  /** `started`, or `exists` when an execution with that name was started before. */
  start(name: string, input: string): Promise<'started' | 'exists'>;
  /** Running executions, counted up to `limit` (counting further would only cost API calls). */
  countRunning(limit: number): Promise<number>;
}

export interface StarterDeps {
  executions: Executions;
  maxConcurrent: number;
  deadLetter: MessageQueue;
  /** The plan queue itself, to shorten a waiting message's visibility; without it, it waits the queue's timeout. */
  planQueue?: VisibilityControl;
  clock: Pick<Clock, 'now'>;
  logger?: BatchLogger & { info(message: string, attributes: Record<string, unknown>): void };
}

/** Over the concurrency limit: not a failure of the message, it is tried again later. */
export class ConcurrencyLimitError extends PlacidError {
  override name = 'ConcurrencyLimitError';
}

export async function startPlannedMigrations(event: SQSEvent, deps: StarterDeps): Promise<BatchOutcome> {
  let running: number | undefined;
  return processSqsBatch<MigrationInput>(event, {
    parse: (body) => parseMigrationInput(parseJsonBody(body, 'plan message'), 'plan message'),
    handle: async (migration, record) => {
      // An expired plan starts at once whatever the load: its execution only records the deferral.
      const expired = Date.parse(migration.plan_expires_at) <= deps.clock.now();
      if (!expired) {
        running ??= await deps.executions.countRunning(deps.maxConcurrent);
        if (running >= deps.maxConcurrent) {
          const wait = await comeBackSoon(record, deps);
          throw new ConcurrencyLimitError(
            `${running} migrations are running (limit ${deps.maxConcurrent}); ${migration.migration_id} waits ${wait}`,
          );
        }
      }
      const name = executionNameFor(migration.migration_id);
      const result = await deps.executions.start(name, JSON.stringify(migration));
      if (result === 'started' && running !== undefined) running++;
      deps.logger?.info(result === 'started' ? 'started migration' : 'migration already started', {
        migration_id: migration.migration_id,
        execution: name,
        correlation_id: migration.correlation_id,
      });
    },
    deadLetter: deps.deadLetter,
    logger: deps.logger,
  });
}

/**
 * Shortens the visibility of a message that must wait, so it is received again after its scheduled
 * wait instead of the queue's timeout. A refusal is not fatal: the message then waits the timeout.
 */
async function comeBackSoon(record: SQSRecord, deps: StarterDeps): Promise<string> {
  if (!deps.planQueue) return "the queue's visibility timeout";
  const receives = Number(record.attributes.ApproximateReceiveCount);
  const seconds = planWaitSeconds(Number.isInteger(receives) && receives > 0 ? receives : 1);
  try {
    await deps.planQueue.changeVisibility(record.receiptHandle, seconds);
    return `${seconds} s`;
  } catch (error) {
    deps.logger?.warn("could not shorten a waiting plan message's visibility; it waits the queue's timeout", {
      messageId: record.messageId,
      error,
    });
    return "the queue's visibility timeout";
  }
}
