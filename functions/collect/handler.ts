/**
 * The collector Lambda: on a schedule (lib/infra/collector.ts), one `placid collect` run into the
 * ingest queue. Secrets come from Secrets Manager only; the clients (and the Keystone token) are
 * reused between runs and rebuilt from re-read secrets every 15 minutes. A run that sent nothing
 * fails the invocation, so it shows as an error.
 */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { collectAndSend } from '../../lib/collect/cycle.js';
import { queueSink } from '../../lib/collect/sink.js';
import type { RunSummary } from '../../lib/collect/summary.js';
import { type CollectorSources, connectSources } from '../../lib/collect/wiring.js';
import { fromSecretsManagerClient } from '../../lib/drivers/awsSecretsManager.js';
import { type SecretsProvider, secretsManagerSecrets } from '../../lib/drivers/credentials.js';
import { reconnectingAfter } from '../../lib/drivers/rotation.js';
import { PlacidError } from '../../lib/model/errors.js';
import { withPowertools } from '../shared/middleware.js';
import { logger } from '../shared/powertools.js';
import { type CollectEnv, readCollectEnv } from './env.js';
import { recordRun } from './metrics.js';

/** Nothing could be sent (see the logged summary); the schedule tries again on its next tick. */
export class CollectRunFailedError extends PlacidError {}

/**
 * The clients, rebuilt from freshly read secrets once they are DEFAULT_SECRET_MAX_AGE_MS old (a
 * rotated credential is picked up without a new container) and after a failed set-up (a bad secret
 * may be fixed before the next tick).
 */
const ready = reconnectingAfter(setUp, { close: ({ sources }) => sources.close?.() });

/** A config name (e.g. `openstack`) read as the Secrets Manager secret the stack named for it. */
export function mappedSecrets(
  ids: Readonly<Record<string, string>>,
  store: SecretsProvider,
): SecretsProvider {
  return { loadSecret: (name) => store.loadSecret(ids[name] ?? name) };
}

async function setUp(): Promise<{ env: CollectEnv; sources: CollectorSources }> {
  const env = readCollectEnv();
  const store = secretsManagerSecrets(fromSecretsManagerClient(new SecretsManagerClient({})));
  const sources = await connectSources(env.config, { secrets: mappedSecrets(env.secretIds, store) });
  return { env, sources };
}

export async function collect(env: CollectEnv, sources: CollectorSources): Promise<RunSummary> {
  const summary = await collectAndSend({ config: env.config, ...sources }, queueSink(env.queueUrl));
  recordRun(summary);
  const log = summary.complete ? logger.info.bind(logger) : logger.warn.bind(logger);
  log('collect run', {
    complete: summary.complete,
    hosts: summary.hosts,
    vms: summary.vms,
    samples: summary.samples,
    gaps: summary.gaps,
    unmapped_series: summary.mapping.unmapped.length,
    vms_without_series: summary.vms_without_series.length,
    messages: { built: summary.messages.built, sent: summary.messages.sent },
    problems: summary.problems.slice(0, 20),
  });
  if (summary.failed) throw new CollectRunFailedError(`nothing sent: ${summary.problems[0] ?? 'no reports'}`);
  return summary;
}

export const handler = withPowertools(async () => {
  const { env, sources } = await ready();
  const summary = await collect(env, sources);
  return { complete: summary.complete, hosts: summary.hosts, vms: summary.vms, sent: summary.messages.sent };
});
