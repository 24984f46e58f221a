/**
 * The plan queue as a local pipeline stage: its handler is the real plan starter core
 * (lib/workflow/starter.ts), with the queue settings the stack gives the plan queue (a visibility
 * timeout of six times the starter's 60 s timeout, five receives before the dead-letter queue).
 */
import type { PipelineStage } from '../local/pipelineStage.js';
import type { Clock } from '../model/clock.js';
import { type Executions, startPlannedMigrations } from '../workflow/starter.js';

export const PLAN_STAGE = 'plan';

export function planStarterStage(executions: Executions, maxConcurrent: number, clock: Clock): PipelineStage {
  return {
    name: PLAN_STAGE,
    batchSize: 10,
    maxReceiveCount: 5,
    visibilityTimeoutSeconds: 6 * 60,
    create:
      (_resources, { deadLetter }) =>
      async (event) =>
        (await startPlannedMigrations(event, { executions, maxConcurrent, deadLetter, clock })).response,
  };
}
