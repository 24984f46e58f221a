/**
 * The workflow's tunables. The Lambda reads them from one JSON environment variable (set by the
 * CDK construct), the CLI from its options; both validate with the same schema.
 */
import * as z from 'zod';
import { ConfigError, ValidationError } from '../model/errors.js';
import { parseWith } from '../model/schema.js';
import { type BlackoutWindow, isValidTimeZone, parseBlackoutWindow } from '../rebalance/blackout.js';

export const WORKFLOW_SETTINGS_ENV = 'PLACID_WORKFLOW_SETTINGS';

const positiveInt = z.number().int().positive();

export const workflowSettingsSchema = z
  .object({
    /** Placid's deadline is estimated_seconds × this (libvirt's own progress timeout is far longer). */
    deadline_factor: z.number().min(1).max(100).default(3),
    /** ... but never shorter than this: small VMs still need setup and switchover time. */
    min_deadline_seconds: positiveInt.default(300),
    /** At the deadline: abort (the VM stays on the source) or force-complete (pause the guest to finish). */
    on_deadline: z.enum(['abort', 'force-complete']).default('abort'),
    /** After force-complete, how long the migration may still take before it is aborted. */
    force_complete_grace_seconds: positiveInt.default(120),
    poll_interval_seconds: positiveInt.max(3600).default(10),
    /** Concurrent migrations per host (as source or destination), and in the whole fleet. */
    max_migrations_per_host: positiveInt.max(100).default(1),
    max_concurrent_migrations: positiveInt.max(1000).default(10),
    /** Lease expiry beyond the longest the migration can take (deadline, grace, drain). */
    lease_margin_seconds: positiveInt.default(900),
    /** kubectl drain's --force: also delete pods no controller recreates. */
    drain_force: z.boolean().default(false),
    /** The whole drain (PDB retries included) must finish within this. Below the Lambda timeout. */
    drain_timeout_seconds: positiveInt.max(840).default(300),
    drain_grace_period_seconds: z.number().int().nonnegative().optional(),
    /** "HH:MM-HH:MM" windows in `timezone` in which no migration starts (as [rebalance]). */
    blackout_windows: z.array(z.string()).default([]),
    timezone: z.string().default('UTC'),
    /** How far back "steal before" averages the VM's samples. */
    steal_window_minutes: positiveInt.default(10),
    /** Migration records expire (DynamoDB TTL) this long after they finish. */
    record_retention_days: positiveInt.default(90),
  })
  .strict();

export type WorkflowSettingsInput = z.input<typeof workflowSettingsSchema>;
export type WorkflowSettings = Omit<z.output<typeof workflowSettingsSchema>, 'blackout_windows'> & {
  blackout_windows: BlackoutWindow[];
};

/** Validates settings; `source` names where they came from in errors. */
export function parseWorkflowSettings(input: unknown, source = 'workflow settings'): WorkflowSettings {
  const raw = parseWith(workflowSettingsSchema, input ?? {}, source);
  if (!isValidTimeZone(raw.timezone)) {
    throw new ValidationError(source, [
      { path: 'timezone', message: `unknown IANA time zone ${raw.timezone}` },
    ]);
  }
  const windows = raw.blackout_windows.map((text, i) => {
    const parsed = parseBlackoutWindow(text);
    if (typeof parsed === 'string') {
      throw new ValidationError(source, [{ path: `blackout_windows[${i}]`, message: parsed }]);
    }
    return parsed;
  });
  return { ...raw, blackout_windows: windows };
}

/** Settings from the environment variable (JSON); defaults when it is unset. */
export function workflowSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): WorkflowSettings {
  const text = env[WORKFLOW_SETTINGS_ENV];
  if (!text) return parseWorkflowSettings({});
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(`${WORKFLOW_SETTINGS_ENV} is not valid JSON`);
  }
  return parseWorkflowSettings(value, WORKFLOW_SETTINGS_ENV);
}

/** Placid's own deadline for a migration estimated to take `estimatedSeconds`. */
export function deadlineSeconds(estimatedSeconds: number, settings: WorkflowSettings): number {
  return Math.max(settings.min_deadline_seconds, Math.ceil(estimatedSeconds * settings.deadline_factor));
}

/** Longest an agent step may take from being scheduled: the activity task's TimeoutSeconds. */
export function agentTaskTimeoutSeconds(settings: WorkflowSettings): number {
  return settings.drain_timeout_seconds + 120;
}

/** How long the leases must last: the whole migration at its worst, plus a margin. */
export function leaseTtlMs(estimatedSeconds: number, settings: WorkflowSettings): number {
  const seconds =
    deadlineSeconds(estimatedSeconds, settings) +
    settings.force_complete_grace_seconds +
    2 * settings.drain_timeout_seconds +
    settings.lease_margin_seconds;
  return seconds * 1000;
}
