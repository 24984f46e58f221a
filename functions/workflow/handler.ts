/**
 * The workflow-steps Lambda: every Task state of the migration state machine invokes it with
 * `{step, state}` (payloadResponseOnly, so the event is that document) and gets the step's result.
 * Errors keep their class name, which is what the state machine's Retry and Catch match on.
 */
import { dispatchStep } from '../../lib/workflow/dispatch.js';
import { withPowertools } from '../shared/middleware.js';
import { logger } from '../shared/powertools.js';
import { workflowDeps } from './deps.js';
import { readWorkflowEnv } from './env.js';

const deps = workflowDeps(readWorkflowEnv());

interface StepEvent {
  step?: string;
  state?: { migration?: { migration_id?: string; correlation_id?: string } };
}

export const handler = withPowertools(async (event: StepEvent) => {
  const migration = event.state?.migration;
  if (migration?.correlation_id) logger.setCorrelationId(migration.correlation_id);
  logger.appendKeys({ step: event.step, migration_id: migration?.migration_id });
  try {
    return await dispatchStep(event, deps);
  } catch (error) {
    logger.warn('workflow step failed', { error });
    throw error;
  }
});
