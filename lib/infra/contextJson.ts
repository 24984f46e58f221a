/**
 * Context settings that are whole option documents (scheduler options, `[rebalance]`, workflow
 * settings). cdk.json gives them as objects, `-c key=value` as JSON text; either way they are checked
 * here with the very validators the Lambdas run at cold start, so a bad option fails `cdk synth`.
 */
import * as z from 'zod';
import { type ConfigDocument, resolveConfig } from '../config/load.js';
import type { SchedulerConfig } from '../config/options.js';
import { createScheduler, isModulePath } from '../engine/registry.js';
import { withPlacidFilters } from '../rebalance/filters/index.js';
import { REBALANCE_OPTIONS } from '../rebalance/options.js';
import { parseRebalanceSettings } from '../rebalance/settings.js';
import { parseWorkflowSettings, type WorkflowSettingsInput } from '../workflow/settings.js';

// The validators start their messages with the source they were given; the context key already
// names it (parseConfig prefixes `placid:<name>:`), so the source is a marker stripped again.
const SOURCE = 'context value';
const withoutSource = (message: string) =>
  message.startsWith(`${SOURCE}: `) ? message.slice(SOURCE.length + 2) : message;

/** An object, or JSON text of one; anything else is an issue. */
const jsonObject = z
  .union([z.string(), z.record(z.string(), z.unknown())])
  .transform((value, ctx): Record<string, unknown> => {
    if (typeof value !== 'string') return value;
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
      ctx.addIssue({ code: 'custom', message: 'expected a JSON object' });
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `not valid JSON (${(error as Error).message})` });
    }
    return z.NEVER;
  });

/** A JSON-object setting checked by `validate` (which throws with a message naming the option). */
function checkedDocument<T>(validate: (value: Record<string, unknown>) => T) {
  return jsonObject.optional().transform((value, ctx): T | undefined => {
    if (value === undefined) return undefined;
    try {
      return validate(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: withoutSource((error as Error).message) });
      return z.NEVER;
    }
  });
}

/**
 * Nova option groups, `{"filter_scheduler": {...}}`, passed on as JSON text. The filter and weigher
 * names are checked by building the scheduler as the CLI and the Lambdas do (createScheduler with
 * Placid's own filters), so a misspelt one fails `cdk synth` with the CLI's message instead of
 * every request after a deploy.
 */
export const schedulerConfigSetting = checkedDocument((groups) => {
  const config = resolveConfig(groups as ConfigDocument, SOURCE);
  // Plugin modules are imported inside the Lambda (paths relative to its task root), never here:
  // a config that names one has its names checked there, at cold start.
  if (!namesPluginModule(config)) createScheduler(config, withPlacidFilters());
  return JSON.stringify(groups);
});

function namesPluginModule(config: SchedulerConfig): boolean {
  const { available_filters, weight_classes } = config.filter_scheduler;
  return [...available_filters, ...weight_classes].some(isModulePath);
}

/** The `[rebalance]` options as one object, `{"mode": "approve"}`, passed on as JSON text. */
export const rebalanceSetting = checkedDocument((options) => {
  const resolved = resolveConfig({ rebalance: options }, SOURCE, REBALANCE_OPTIONS);
  parseRebalanceSettings(resolved.rebalance, SOURCE);
  return JSON.stringify(options);
});

/** The plan TTL the detector will use: `placid:rebalance`'s `plan_ttl_minutes`, or its default. */
export function planTtlMinutesOf(rebalance: string | undefined): number {
  const options = rebalance === undefined ? {} : (JSON.parse(rebalance) as ConfigDocument[string]);
  const resolved = resolveConfig({ rebalance: options }, SOURCE, REBALANCE_OPTIONS);
  return parseRebalanceSettings(resolved.rebalance, SOURCE).plan_ttl_minutes;
}

/** The migration workflow's settings (lib/workflow/settings.ts), passed on as given once valid. */
export const workflowSettingsSetting = checkedDocument((settings) => {
  parseWorkflowSettings(settings, SOURCE);
  return settings as WorkflowSettingsInput;
});
