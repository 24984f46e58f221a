/**
 * The workflow-steps Lambda: every AWS-side Task state of the migration state machine (leases,
 * placement re-check, records) invokes it with `{step, state}` (payloadResponseOnly, so the event
 * is that document) and gets the step's result. The on-premises steps run on `placid agent`.
 * Errors keep their class name, which is what the state machine's Retry and Catch match on.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { dispatchCloudStep } from '../../lib/workflow/cloudSteps.js';
import type { MigrationOutcome } from '../../lib/workflow/ports.js';
import { lazily } from '../shared/coldStart.js';
import { withPowertools } from '../shared/middleware.js';
import { logger, metrics } from '../shared/powertools.js';
import { workflowDeps } from './deps.js';
import { readWorkflowEnv } from './env.js';

const deps = lazily(() => workflowDeps(readWorkflowEnv()));

interface StepEvent {
  step?: string;
  state?: { migration?: { migration_id?: string; correlation_id?: string } };
}

export const handler = withPowertools(async (event: StepEvent) => {
  const migration = event.state?.migration;
  if (migration?.correlation_id) logger.setCorrelationId(migration.correlation_id);
  logger.appendKeys({ step: event.step, migration_id: migration?.migration_id });
  try {
    const result = await dispatchCloudStep(event, await deps());
    // The dashboard's "bytes moved" graph: only a recorded success moved anything.
    if (event.step === 'recordOutcome') {
      metrics.addMetric('BytesMoved', MetricUnit.Bytes, (result as MigrationOutcome).bytes);
    }
    return result;
  } catch (error) {
    logger.warn('workflow step failed', { error });
    throw error;
  }
});
