/**
 * The detector Lambda's settings, from its environment (set by the CDK stack), read once at cold
 * start: a bad value fails loudly with the variable and the option named.
 */
import * as z from 'zod';
import { parseJsonConfig, resolveConfig } from '../../lib/config/load.js';
import { defaultConfig, OPTIONS, type SchedulerConfig } from '../../lib/config/options.js';
import { defaultsFor } from '../../lib/config/table.js';
import { ConfigError } from '../../lib/model/errors.js';
import { REBALANCE_OPTIONS } from '../../lib/rebalance/options.js';
import { parseRebalanceSettings, type RebalanceSettings } from '../../lib/rebalance/settings.js';
import { type TableNames, tableNamesFromEnv } from '../../lib/store/tables.js';
import { parseEnv } from '../shared/env.js';

export const DETECT_ENV = {
  planQueueUrl: 'PLACID_PLAN_QUEUE_URL',
  rebalanceSettings: 'PLACID_REBALANCE_SETTINGS',
  schedulerConfig: 'PLACID_SCHEDULER_CONFIG',
} as const;

/** Optional local DynamoDB endpoint (dynalite), as the workflow Lambda reads it. */
const DYNAMODB_ENDPOINT = 'PLACID_DYNAMODB_ENDPOINT';

const schema = z.object({
  [DETECT_ENV.planQueueUrl]: z.url({ error: 'must be the plan queue URL' }),
  [DETECT_ENV.rebalanceSettings]: z.string().min(1).optional(),
  [DETECT_ENV.schedulerConfig]: z.string().min(1).optional(),
  [DYNAMODB_ENDPOINT]: z.url({ error: 'must be a URL' }).optional(),
});

export interface DetectEnv {
  tables: TableNames;
  planQueueUrl: string;
  settings: RebalanceSettings;
  config: SchedulerConfig;
  dynamoEndpoint?: string;
}

/** @throws ConfigError naming every bad variable, or the variable and option of a bad setting. */
export function readDetectEnv(env: NodeJS.ProcessEnv = process.env): DetectEnv {
  const v = parseEnv(schema, env, 'detector environment');
  return {
    tables: tableNamesFromEnv(env),
    planQueueUrl: v[DETECT_ENV.planQueueUrl],
    settings: rebalanceSettingsFrom(v[DETECT_ENV.rebalanceSettings]),
    config: schedulerConfigFrom(v[DETECT_ENV.schedulerConfig]),
    dynamoEndpoint: v[DYNAMODB_ENDPOINT],
  };
}

/**
 * `PLACID_REBALANCE_SETTINGS` holds the `[rebalance]` options as one JSON object,
 * e.g. `{"mode": "approve", "plan_ttl_minutes": 20}`; unset means every default.
 */
export function rebalanceSettingsFrom(text: string | undefined): RebalanceSettings {
  const source = DETECT_ENV.rebalanceSettings;
  if (text === undefined) return parseRebalanceSettings(defaultsFor(REBALANCE_OPTIONS).rebalance, source);
  let options: unknown;
  try {
    options = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${source}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigError(`${source}: expected a JSON object of [rebalance] options, e.g. {"mode": "auto"}`);
  }
  const resolved = resolveConfig(
    { rebalance: options as Record<string, unknown> },
    source,
    REBALANCE_OPTIONS,
  );
  return parseRebalanceSettings(resolved.rebalance, source);
}

/** `PLACID_SCHEDULER_CONFIG` holds Nova's option groups as JSON (`{"filter_scheduler": {...}}`). */
export function schedulerConfigFrom(text: string | undefined): SchedulerConfig {
  if (text === undefined) return defaultConfig();
  const source = DETECT_ENV.schedulerConfig;
  return resolveConfig(parseJsonConfig(text, source), source, OPTIONS);
}
