/**
 * `placid agent --config FILE` (YAML or JSON): which activity to poll, how hard, where the driver
 * credentials come from, the workflow settings the on-premises steps use (the same object as the
 * stack's `placid:workflowSettings`: keep them equal), and optionally the collector to run on its
 * schedule. Relative paths are relative to the file. AWS credentials are not configured here: the
 * SDK's standard provider chain finds them (IAM Roles Anywhere, AWS_PROFILE, the environment).
 */
import { hostname } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import * as z from 'zod';
import { parseDuration } from '../collect/durationText.js';
import { parseConfigMapping, readConfigFile } from '../config/configFile.js';
import { parseWith } from '../model/schema.js';
import { parseWorkflowSettings, type WorkflowSettings } from '../workflow/settings.js';
import { type TrustPolicy, trustPolicySchema } from '../workflow/trust.js';

const ACTIVITY_ARN = /^arn:aws[a-z-]*:states:([a-z0-9-]+):\d{12}:activity:[A-Za-z0-9_-]{1,80}$/;
const QUEUE_URL = /^https:\/\/sqs\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\/\d{12}\/[A-Za-z0-9_-]{1,80}(\.fifo)?$/;

const duration = z.string().refine((v) => (parseDuration(v) ?? 0) >= 1000, {
  message: 'must be a duration of at least 1s, e.g. 60s or 5m',
});

export const agentConfigSchema = z.strictObject({
  activity_arn: z.string().regex(ACTIVITY_ARN, {
    message: 'must be the stack output AgentActivityArn (arn:aws:states:REGION:ACCOUNT:activity:NAME)',
  }),
  /** Default: the activity's region. */
  region: z.string().min(1).optional(),
  /** Shown in the execution history; default host name and process id. */
  worker_name: z.string().min(1).max(80).optional(),
  concurrency: z.number().int().min(1).max(64).default(4),
  /** Under half the state machine's 60 s HeartbeatSeconds, so one lost beat is not fatal. */
  heartbeat_interval_seconds: z.number().int().min(1).max(29).default(20),
  credentials: z
    .discriminatedUnion('source', [
      z.strictObject({
        source: z.literal('secrets-manager'),
        nova: z.string().min(1).default('placid/nova'),
        kubernetes: z.string().min(1).default('placid/kubernetes'),
        consul: z.string().min(1).default('placid/consul'),
      }),
      z.strictObject({
        source: z.literal('file'),
        /** The `placid migrate --endpoints` file: `openstack`, `kubernetes`, `consul` keys. */
        path: z.string().min(1),
      }),
    ])
    .default({
      source: 'secrets-manager',
      nova: 'placid/nova',
      kubernetes: 'placid/kubernetes',
      consul: 'placid/consul',
    }),
  workflow_settings: z.record(z.string(), z.unknown()).default({}),
  /** Undoing what Placid left drained (lib/agent/leftovers.ts). */
  cleanup: z
    .strictObject({
      /** A node drained longer than this by a migration not running here is undrained. */
      max_drained: duration.default('2h'),
      /** How often the agent looks (it also does at start). */
      interval: duration.default('5m'),
      /** Consul agents whose maintenance Placid may have left on (host, host:port or URL). */
      consul_agents: z.array(z.string().min(1)).default([]),
    })
    .default({ max_drained: '2h', interval: '5m', consul_agents: [] }),
  /** Where a VM's Kubernetes node and Consul agent may be found (docs/trust-model.md). */
  trust: trustPolicySchema.default(trustPolicySchema.parse({})),
  collect: z
    .strictObject({
      /** The collector's own config (docs/collect.md). */
      config: z.string().min(1),
      interval: duration.default('60s'),
      /** The stack output IngestQueueUrl. */
      queue_url: z
        .string()
        .regex(QUEUE_URL, { message: 'must be an SQS queue URL (the stack output IngestQueueUrl)' }),
    })
    .optional(),
});

export interface AgentConfig {
  activityArn: string;
  region: string;
  workerName: string;
  concurrency: number;
  heartbeatIntervalMs: number;
  credentials:
    | { source: 'secrets-manager'; nova: string; kubernetes: string; consul: string }
    | { source: 'file'; path: string };
  settings: WorkflowSettings;
  cleanup: { maxDrainedMs: number; intervalMs: number; consulAgents: string[] };
  trust: TrustPolicy;
  collect?: { config: string; intervalMs: number; queueUrl: string };
}

export async function loadAgentConfig(path: string): Promise<AgentConfig> {
  return parseAgentConfig(await readConfigFile(path), path);
}

/** Parses config text; `source` names it in errors and anchors its relative paths. */
export function parseAgentConfig(text: string, source: string): AgentConfig {
  const doc = parseConfigMapping(text, source, 'at least activity_arn');
  const c = parseWith(agentConfigSchema, doc, source);
  const anchored = (p: string) => (isAbsolute(p) ? p : resolve(dirname(source), p));
  return {
    activityArn: c.activity_arn,
    region: c.region ?? (ACTIVITY_ARN.exec(c.activity_arn)?.[1] as string),
    workerName: c.worker_name ?? `${hostname()}:${process.pid}`,
    concurrency: c.concurrency,
    heartbeatIntervalMs: c.heartbeat_interval_seconds * 1000,
    credentials:
      c.credentials.source === 'file'
        ? { ...c.credentials, path: anchored(c.credentials.path) }
        : c.credentials,
    settings: parseWorkflowSettings(c.workflow_settings, `${source}: workflow_settings`),
    cleanup: {
      maxDrainedMs: parseDuration(c.cleanup.max_drained) as number,
      intervalMs: parseDuration(c.cleanup.interval) as number,
      consulAgents: c.cleanup.consul_agents,
    },
    trust: c.trust,
    collect: c.collect && {
      config: anchored(c.collect.config),
      intervalMs: parseDuration(c.collect.interval) as number,
      queueUrl: c.collect.queue_url,
    },
  };
}
