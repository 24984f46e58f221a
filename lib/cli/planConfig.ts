/** The config of `placid plan` and `placid detect`: Nova's options plus `[rebalance]`, and plug-ins. */
import { dirname, resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import { defaultConfig, OPTIONS, type SchedulerConfig } from '../config/options.js';
import { mergeOptionTables } from '../config/table.js';
import { loadPluginModules, type Plugins } from '../engine/registry.js';
import { REBALANCE_OPTIONS } from '../rebalance/options.js';
import {
  defaultRebalanceSettings,
  parseRebalanceSettings,
  type RebalanceSettings,
} from '../rebalance/settings.js';

/** Nova's scheduler options plus `[rebalance]`, resolved by one loader. */
export const PLAN_OPTIONS = mergeOptionTables(OPTIONS, REBALANCE_OPTIONS);

export interface PlanConfig {
  config: SchedulerConfig;
  settings: RebalanceSettings;
  plugins: Plugins;
}

/** The scheduler config and `[rebalance]` settings of FILE (INI or JSON), or the defaults. */
export async function readPlanConfig(path: string | undefined): Promise<PlanConfig> {
  if (path === undefined)
    return { config: defaultConfig(), settings: defaultRebalanceSettings(), plugins: {} };
  const config = await loadConfig(path, PLAN_OPTIONS);
  const settings = parseRebalanceSettings(config.rebalance, path);
  const plugins = await loadPluginModules(config, dirname(resolve(path)));
  return { config, settings, plugins };
}
