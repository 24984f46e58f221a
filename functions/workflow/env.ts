/**
 * The workflow-steps Lambda's settings, from its environment (set by lib/infra/workflow.ts), read
 * once at cold start: a misconfigured function fails loudly with every problem named. It runs only
 * the AWS-side steps, so it needs table names and settings, and no driver secrets.
 */
import * as z from 'zod';
import { type TableNames, tableNamesFromEnv } from '../../lib/store/tables.js';
import { type WorkflowSettings, workflowSettingsFromEnv } from '../../lib/workflow/settings.js';
import { parseEnv } from '../shared/env.js';

export const WORKFLOW_ENV = {
  schedulerConfig: 'PLACID_SCHEDULER_CONFIG',
  dynamoEndpoint: 'PLACID_DYNAMODB_ENDPOINT',
} as const;

const schema = z.object({
  [WORKFLOW_ENV.schedulerConfig]: z.string().min(1).optional(),
  [WORKFLOW_ENV.dynamoEndpoint]: z.url({ error: 'must be a URL' }).optional(),
});

export interface WorkflowEnv {
  tables: TableNames;
  settings: WorkflowSettings;
  schedulerConfig?: string;
  dynamoEndpoint?: string;
}

/** @throws ConfigError naming every bad variable. */
export function readWorkflowEnv(env: NodeJS.ProcessEnv = process.env): WorkflowEnv {
  const v = parseEnv(schema, env, 'workflow steps environment');
  return {
    tables: tableNamesFromEnv(env),
    settings: workflowSettingsFromEnv(env),
    schedulerConfig: v[WORKFLOW_ENV.schedulerConfig],
    dynamoEndpoint: v[WORKFLOW_ENV.dynamoEndpoint],
  };
}
