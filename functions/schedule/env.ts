/**
 * The schedule stage's settings, read from the environment once at module load. Anything wrong is
 * a ConfigError that names every bad variable, so a misconfigured Lambda fails its first cold start
 * loudly instead of failing each request.
 */
import * as z from 'zod';
import { type TableNames, tableNamesFromEnv } from '../../lib/store/tables.js';
import { parseEnv } from '../shared/env.js';

export interface ScheduleEnv {
  tables: TableNames;
  /** A local DynamoDB (e.g. dynalite) instead of the regional endpoint. */
  dynamoEndpoint?: string;
  /** Where the queue consumer sends decisions (required for it, unused by the URL handler). */
  replyQueueUrl?: string;
  /** Where the queue consumer sends malformed requests with their reason. */
  deadLetterQueueUrl?: string;
  /** nova.conf-style INI or .json, relative to the Lambda's task root; Nova's defaults when unset. */
  schedulerConfigFile?: string;
  /** The same as inline JSON: `{"filter_scheduler": {...}}`. */
  schedulerConfigJson?: string;
  fullRefreshMs: number;
  maxAgeMs: number;
}

/** Variable names (lib/infra sets them from here); PLACID_DEAD_LETTER_QUEUE_URL as in every stage. */
export const SCHEDULE_ENV = {
  dynamoEndpoint: 'PLACID_DYNAMODB_ENDPOINT',
  replyQueueUrl: 'PLACID_REPLY_QUEUE_URL',
  deadLetterQueueUrl: 'PLACID_DEAD_LETTER_QUEUE_URL',
  schedulerConfigFile: 'PLACID_SCHEDULER_CONFIG_FILE',
  schedulerConfigJson: 'PLACID_SCHEDULER_CONFIG',
  fullRefreshSeconds: 'PLACID_SNAPSHOT_FULL_REFRESH_SECONDS',
  maxAgeMs: 'PLACID_SNAPSHOT_MAX_AGE_MS',
} as const;

const url = z.url({ message: 'must be a URL' });
const wholeNumber = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, { message: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { message: `must be at least ${min}` })
        .max(max, { message: `must be at most ${max}` }),
    )
    .optional()
    .transform((v) => v ?? fallback);

/** The queue consumer cannot run without its reply and dead-letter queues; the URL handler needs neither. */
const queueUrl = (required: boolean) =>
  required
    ? z.url({ error: (i) => (i.input === undefined ? 'is required by the queue consumer' : 'must be a URL') })
    : url.optional();

const scheduleSchema = (queues: boolean) =>
  z
    .object({
      [SCHEDULE_ENV.dynamoEndpoint]: url.optional(),
      [SCHEDULE_ENV.replyQueueUrl]: queueUrl(queues),
      [SCHEDULE_ENV.deadLetterQueueUrl]: queueUrl(queues),
      [SCHEDULE_ENV.schedulerConfigFile]: z.string().min(1).optional(),
      [SCHEDULE_ENV.schedulerConfigJson]: z.string().min(1).optional(),
      [SCHEDULE_ENV.fullRefreshSeconds]: wholeNumber(1, 86_400, 300),
      [SCHEDULE_ENV.maxAgeMs]: wholeNumber(0, 60_000, 0),
    })
    .refine((v) => !(v[SCHEDULE_ENV.schedulerConfigFile] && v[SCHEDULE_ENV.schedulerConfigJson]), {
      path: [SCHEDULE_ENV.schedulerConfigFile],
      message: `and ${SCHEDULE_ENV.schedulerConfigJson} are both set; set one, not both`,
    });

/**
 * Validates the environment. `queues: true` for the queue consumer, which cannot run without its
 * reply and dead-letter queues.
 * @throws ConfigError naming each variable that is missing or wrong.
 * @example const env = readScheduleEnv(process.env, { queues: true });
 */
export function readScheduleEnv(env: NodeJS.ProcessEnv, options: { queues: boolean }): ScheduleEnv {
  // An empty variable counts as unset, as a CDK stack with an optional value would leave it.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const v = parseEnv(scheduleSchema(options.queues), present, 'schedule stage environment');
  return {
    tables: tableNamesFromEnv(env),
    dynamoEndpoint: v[SCHEDULE_ENV.dynamoEndpoint],
    replyQueueUrl: v[SCHEDULE_ENV.replyQueueUrl],
    deadLetterQueueUrl: v[SCHEDULE_ENV.deadLetterQueueUrl],
    schedulerConfigFile: v[SCHEDULE_ENV.schedulerConfigFile],
    schedulerConfigJson: v[SCHEDULE_ENV.schedulerConfigJson],
    fullRefreshMs: v[SCHEDULE_ENV.fullRefreshSeconds] * 1000,
    maxAgeMs: v[SCHEDULE_ENV.maxAgeMs],
  };
}
