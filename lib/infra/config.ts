/**
 * The stack's settings: CDK context keys `placid:<name>` (cdk.json or `-c placid:<name>=<value>`),
 * validated at synth time so a bad value fails `cdk synth` with the setting's name, not a deploy.
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import * as z from 'zod';
import { DETECTOR_LEASE_TTL_MS } from '../detector/reconcile.js';
import { ConfigError } from '../model/errors.js';
import { rebalanceSetting, schedulerConfigSetting, workflowSettingsSetting } from './contextJson.js';

export const CONTEXT_PREFIX = 'placid:';

// `-c key=value` always arrives as a string; cdk.json gives real numbers. Accept both.
const numeric = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v), schema);
const int = (min: number, max: number) => numeric(z.number().int().min(min).max(max));

const trustAnchorArn = z
  .string()
  .regex(/^arn:aws[a-z-]*:rolesanywhere:[a-z0-9-]+:\d{12}:trust-anchor\/[0-9a-f-]{36}$/, {
    message: 'must be an IAM Roles Anywhere trust anchor ARN',
  })
  .optional();

// A CN is one line of printable text; `-c key=a,b` arrives as one string.
const certificateSubjects = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()) : v),
    z
      .array(z.string().regex(/^[^\s,*][^,*\n]{0,63}$/, 'must be a certificate CN (no wildcard, no comma)'))
      .min(1),
  )
  .optional();

const RETENTION_DAYS = Object.values(RetentionDays).filter(
  (d): d is RetentionDays => typeof d === 'number' && d !== RetentionDays.INFINITE,
);

/** Every setting: its schema (with its default) and what it controls. The deploy guide lists them. */
export const SETTINGS = {
  logRetentionDays: {
    schema: numeric(z.number()).refine((d) => RETENTION_DAYS.includes(d as RetentionDays), {
      message: `must be one of ${RETENTION_DAYS.join(', ')}`,
    }),
    default: 30,
    help: 'Days Lambda log groups keep their logs',
  },
  maxReceiveCount: {
    schema: int(1, 1000),
    default: 5,
    help: 'Receives before SQS moves a message to its dead-letter queue',
  },
  deadLetterRetentionDays: {
    schema: int(1, 14),
    default: 14,
    help: 'Days a dead-letter queue keeps a message (SQS maximum 14)',
  },
  ingestBatchSize: { schema: int(1, 10_000), default: 10, help: 'Messages per ingest invocation' },
  ingestBatchingWindowSeconds: {
    schema: int(0, 300),
    default: 1,
    help: 'Seconds Lambda waits to fill an ingest batch (required above 10 messages)',
  },
  ingestTimeoutSeconds: { schema: int(3, 900), default: 30, help: 'Ingest function timeout' },
  ingestMemoryMb: { schema: int(128, 10_240), default: 512, help: 'Ingest function memory' },
  ingestMaxConcurrency: {
    schema: int(2, 1000),
    default: 10,
    help: 'Most concurrent ingest invocations the queue starts (protects DynamoDB)',
  },
  scheduleBatchSize: { schema: int(1, 10), default: 5, help: 'Requests per schedule invocation' },
  scheduleTimeoutSeconds: { schema: int(3, 900), default: 15, help: 'Schedule functions timeout' },
  scheduleMemoryMb: {
    schema: int(128, 10_240),
    default: 1024,
    help: 'Schedule functions memory (they hold the host snapshot)',
  },
  scheduleMaxConcurrency: {
    schema: int(2, 1000),
    default: 5,
    help: 'Most concurrent schedule invocations the request queue starts',
  },
  reportMaxAgeMinutes: {
    schema: int(1, 1440),
    default: 5,
    help: 'Alarm when no report has been stored for this many minutes',
  },
  pluginTimeoutMs: {
    schema: int(50, 60_000),
    default: 2000,
    help: "The nova-scheduler plug-in's [placid] timeout in ms: alarm when the Function URL's p99 latency is over it",
  },
  pluginFailOpenAlarmPercent: {
    schema: numeric(z.number().min(0).max(100)),
    default: 1,
    help: 'Alarm when more than this percent of Function URL requests got a 4xx/5xx (the plug-in failed open for them)',
  },
  schedulerConfig: {
    schema: schedulerConfigSetting,
    default: undefined,
    help: 'Scheduler options as nova.conf groups, e.g. {"filter_scheduler": {"enabled_filters": "..."}}',
  },
  rebalance: {
    schema: rebalanceSetting,
    default: undefined,
    help: 'The detector\'s [rebalance] options as one object, e.g. {"mode": "approve", "plan_ttl_minutes": 20}',
  },
  workflowSettings: {
    schema: workflowSettingsSetting,
    default: undefined,
    help: 'Migration workflow settings, e.g. {"max_concurrent_migrations": 4, "on_deadline": "force-complete"}',
  },
  detectTimeoutSeconds: {
    // Under the detector's lease: a run outliving its lease could plan alongside the next one.
    schema: int(10, DETECTOR_LEASE_TTL_MS / 1000 - 10),
    default: 90,
    help: `Detector function timeout, below its ${DETECTOR_LEASE_TTL_MS / 1000} s lease`,
  },
  detectMemoryMb: {
    schema: int(128, 10_240),
    default: 1024,
    help: 'Detector function memory (it loads the fleet and plans)',
  },
  detectAlarmPrefix: {
    schema: z.string().regex(/^[A-Za-z0-9._/#:-]{1,200}$/, 'must be 1-200 characters allowed in alarm names'),
    default: 'placid-detect-',
    help: 'A CloudWatch alarm whose name starts with this runs the detector when it goes into ALARM',
  },
  alarmEmail: {
    schema: z.email().optional(),
    default: undefined,
    help: 'Optional address subscribed to the alarm topic',
  },
  novaSecretName: {
    schema: z.string().min(1),
    default: 'placid/nova',
    help: 'Secrets Manager name of the Nova credentials',
  },
  kubernetesSecretName: {
    schema: z.string().min(1),
    default: 'placid/kubernetes',
    help: 'Secrets Manager name of the Kubernetes credentials',
  },
  consulSecretName: {
    schema: z.string().min(1),
    default: 'placid/consul',
    help: 'Secrets Manager name of the Consul credentials',
  },
  agentTrustAnchorArn: {
    schema: trustAnchorArn,
    default: undefined,
    help: "IAM Roles Anywhere trust anchor of the agents' certificates; with agentCertificateSubjects, makes the agent role",
  },
  agentCertificateSubjects: {
    schema: certificateSubjects,
    default: undefined,
    help: "Subject CNs of the agents' certificates (a list, or comma-separated); no other certificate of the CA may assume the role",
  },
  schedulerTrustAnchorArn: {
    schema: trustAnchorArn,
    default: undefined,
    help: 'IAM Roles Anywhere trust anchor of the nova-scheduler hosts that call the Function URL; with schedulerCertificateSubjects, makes their role',
  },
  schedulerCertificateSubjects: {
    schema: certificateSubjects,
    default: undefined,
    help: "Subject CNs of the nova-scheduler hosts' certificates",
  },
} as const satisfies Record<string, { schema: z.ZodType; default: unknown; help: string }>;

export type SettingName = keyof typeof SETTINGS;
export type PlacidConfig = { [K in SettingName]: z.output<(typeof SETTINGS)[K]['schema']> };

const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** Validates raw values (by setting name); the error names every bad setting with its context key. */
export function parseConfig(raw: Partial<Record<string, unknown>>): PlacidConfig {
  const problems: string[] = [];
  for (const name of Object.keys(raw)) {
    if (!(name in SETTINGS)) problems.push(`${CONTEXT_PREFIX}${name}: unknown setting`);
  }
  const config: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const { schema, default: fallback } = SETTINGS[name];
    const result = schema.safeParse(raw[name] ?? fallback);
    if (result.success) config[name] = result.data;
    else problems.push(`${CONTEXT_PREFIX}${name}: ${result.error.issues.map((i) => i.message).join('; ')}`);
  }
  if (problems.length === 0) problems.push(...crossChecks(config as PlacidConfig));
  if (problems.length > 0) {
    throw new ConfigError(`invalid CDK context: ${problems.join(' | ')}`);
  }
  return config as PlacidConfig;
}

// Rules that involve two settings (Lambda's own limits on SQS event sources; a role's trust).
function crossChecks(config: PlacidConfig): string[] {
  const problems: string[] = [];
  if (config.ingestBatchSize > 10 && config.ingestBatchingWindowSeconds < 1) {
    problems.push(
      `${CONTEXT_PREFIX}ingestBatchingWindowSeconds: must be at least 1 when ${CONTEXT_PREFIX}ingestBatchSize is above 10`,
    );
  }
  for (const who of ['agent', 'scheduler'] as const) {
    const anchor = `${who}TrustAnchorArn` as const;
    const subjects = `${who}CertificateSubjects` as const;
    if (config[subjects] && !config[anchor]) {
      problems.push(
        `${CONTEXT_PREFIX}${anchor}: required for a ${who} role (${CONTEXT_PREFIX}${subjects} is set): without one, no certificate could be checked`,
      );
    }
    if (config[anchor] && !config[subjects]) {
      problems.push(
        `${CONTEXT_PREFIX}${subjects}: required with ${CONTEXT_PREFIX}${anchor}: else any certificate of that CA could assume the ${who} role`,
      );
    }
  }
  return problems;
}

/** The Roles Anywhere trust of `who`'s role; undefined: no role (crossChecks made both or neither). */
export function rolesAnywhereOf(
  config: PlacidConfig,
  who: 'agent' | 'scheduler',
): { trustAnchorArn: string; subjects: readonly string[] } | undefined {
  const trustAnchorArn = config[`${who}TrustAnchorArn`];
  const subjects = config[`${who}CertificateSubjects`];
  return trustAnchorArn && subjects ? { trustAnchorArn, subjects } : undefined;
}

/** Reads every `placid:*` key from the construct tree's context and validates it. */
export function configFromContext(node: Node): PlacidConfig {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node.getAllContext() as Record<string, unknown>)) {
    if (key.startsWith(CONTEXT_PREFIX)) raw[key.slice(CONTEXT_PREFIX.length)] = value;
  }
  return parseConfig(raw);
}
