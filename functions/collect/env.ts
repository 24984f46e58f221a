/**
 * The collector Lambda's settings, from its environment (set by lib/infra/collector.ts): the config
 * as JSON, the ingest queue, and the Secrets Manager names of the secrets the config refers to.
 */
import * as z from 'zod';
import type { CollectConfig } from '../../lib/collect/config.js';
import { parseCollectConfig } from '../../lib/collect/loadConfig.js';
import { ConfigError } from '../../lib/model/errors.js';
import { parseEnv } from '../shared/env.js';

export const COLLECT_ENV = {
  config: 'PLACID_COLLECT_CONFIG',
  queueUrl: 'PLACID_INGEST_QUEUE_URL',
  /** JSON `{"<name in the config>": "<Secrets Manager secret name>"}`. */
  secretIds: 'PLACID_COLLECT_SECRETS',
} as const;

const schema = z.object({
  [COLLECT_ENV.config]: z.string({ error: 'is required' }).min(1, 'is required'),
  [COLLECT_ENV.queueUrl]: z.url({ error: 'must be the ingest queue URL' }),
  [COLLECT_ENV.secretIds]: z.string().optional(),
});

const secretIds = z.record(z.string(), z.string().min(1));

export interface CollectEnv {
  config: CollectConfig;
  queueUrl: string;
  secretIds: Record<string, string>;
}

/** @throws ConfigError or ValidationError naming the variable and the field. */
export function readCollectEnv(env: NodeJS.ProcessEnv = process.env): CollectEnv {
  const v = parseEnv(schema, env, 'collector environment');
  let ids: Record<string, string> = {};
  const idsText = v[COLLECT_ENV.secretIds];
  if (idsText !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(idsText);
    } catch {
      throw new ConfigError(`collector environment: ${COLLECT_ENV.secretIds} is not JSON`);
    }
    const result = secretIds.safeParse(parsed);
    if (!result.success) {
      throw new ConfigError(`collector environment: ${COLLECT_ENV.secretIds} must map names to secret names`);
    }
    ids = result.data;
  }
  return {
    config: parseCollectConfig(v[COLLECT_ENV.config], COLLECT_ENV.config),
    queueUrl: v[COLLECT_ENV.queueUrl],
    secretIds: ids,
  };
}
