/**
 * The workflow-steps Lambda's settings, from its environment (set by lib/infra/workflow.ts), read
 * once at cold start: a misconfigured function fails loudly with every problem named.
 */
import * as z from 'zod';
import { type TableNames, tableNamesFromEnv } from '../../lib/store/tables.js';
import type { DriverSecretNames } from '../../lib/workflow/drivers.js';
import { type WorkflowSettings, workflowSettingsFromEnv } from '../../lib/workflow/settings.js';
import { parseEnv } from '../shared/env.js';

export const WORKFLOW_ENV = {
  novaSecret: 'PLACID_SECRET_NOVA',
  kubernetesSecret: 'PLACID_SECRET_KUBERNETES',
  consulSecret: 'PLACID_SECRET_CONSUL',
  schedulerConfig: 'PLACID_SCHEDULER_CONFIG',
  dynamoEndpoint: 'PLACID_DYNAMODB_ENDPOINT',
} as const;

const secretName = z.string({ error: 'is required (a Secrets Manager secret name)' }).min(1);

const schema = z.object({
  [WORKFLOW_ENV.novaSecret]: secretName,
  [WORKFLOW_ENV.kubernetesSecret]: secretName,
  [WORKFLOW_ENV.consulSecret]: secretName,
  [WORKFLOW_ENV.schedulerConfig]: z.string().min(1).optional(),
  [WORKFLOW_ENV.dynamoEndpoint]: z.url({ error: 'must be a URL' }).optional(),
});

export interface WorkflowEnv {
  tables: TableNames;
  secrets: DriverSecretNames;
  settings: WorkflowSettings;
  schedulerConfig?: string;
  dynamoEndpoint?: string;
}

/** @throws ConfigError naming every bad variable. */
export function readWorkflowEnv(env: NodeJS.ProcessEnv = process.env): WorkflowEnv {
  const v = parseEnv(schema, env, 'workflow steps environment');
  return {
    tables: tableNamesFromEnv(env),
    secrets: {
      nova: v[WORKFLOW_ENV.novaSecret],
      kubernetes: v[WORKFLOW_ENV.kubernetesSecret],
      consul: v[WORKFLOW_ENV.consulSecret],
    },
    settings: workflowSettingsFromEnv(env),
    schedulerConfig: v[WORKFLOW_ENV.schedulerConfig],
    dynamoEndpoint: v[WORKFLOW_ENV.dynamoEndpoint],
  };
}
