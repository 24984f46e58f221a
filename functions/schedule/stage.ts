/**
 * Everything the schedule stage keeps between invocations, built once per Lambda instance: the
 * store client, the warm fleet snapshot, the configured scheduler and the queues.
 */
import { dirname, resolve } from 'node:path';
import { loadConfig, parseJsonConfig, resolveConfig } from '../../lib/config/load.js';
import { defaultConfig, type SchedulerConfig } from '../../lib/config/options.js';
import { createScheduler, loadPluginModules } from '../../lib/engine/registry.js';
import type { MessageQueue } from '../../lib/queue/port.js';
import { SqsQueue } from '../../lib/queue/sqs.js';
import { withPlacidFilters } from '../../lib/rebalance/filters/index.js';
import type { ScheduleDeps } from '../../lib/schedule/core.js';
import { releaseSchedulers } from '../../lib/schedule/releases.js';
import { FleetSnapshot } from '../../lib/schedule/snapshot.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { readScheduleEnv, SCHEDULE_ENV, type ScheduleEnv } from './env.js';

export interface QueueStage {
  deps: ScheduleDeps;
  replies: MessageQueue;
  deadLetter: MessageQueue;
}

/**
 * The deps of the core from validated settings. A config file path is relative to `baseDir` (the
 * task root on Lambda), and its plugin modules to the file's folder, as for the CLI.
 */
export async function scheduleDeps(settings: ScheduleEnv, baseDir: string): Promise<ScheduleDeps> {
  const configFile = settings.schedulerConfigFile && resolve(baseDir, settings.schedulerConfigFile);
  const config = await schedulerConfig(settings, configFile);
  const pluginDir = configFile ? dirname(configFile) : baseDir;
  const plugins = withPlacidFilters(await loadPluginModules(config, pluginDir));
  const scheduler = createScheduler(config, plugins);
  const store = new FleetStore({
    doc: createDocumentClient({ endpoint: settings.dynamoEndpoint }),
    tables: settings.tables,
    serviceDownTimeSeconds: config.DEFAULT.service_down_time,
  });
  const snapshot = new FleetSnapshot(store, {
    fullRefreshMs: settings.fullRefreshMs,
    maxAgeMs: settings.maxAgeMs,
  });
  return { store, snapshot, scheduler, forRelease: releaseSchedulers(config, plugins) };
}

/** The URL handler's deps, from the environment (see SCHEDULE_ENV). */
export function urlStageFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<ScheduleDeps> {
  return scheduleDeps(readScheduleEnv(env, { queues: false }), taskRoot(env));
}

/** The queue consumer's deps and queues, from the environment (see SCHEDULE_ENV). */
export async function queueStageFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<QueueStage> {
  const settings = readScheduleEnv(env, { queues: true });
  return {
    deps: await scheduleDeps(settings, taskRoot(env)),
    replies: SqsQueue.fromUrl(settings.replyQueueUrl!),
    deadLetter: SqsQueue.fromUrl(settings.deadLetterQueueUrl!),
  };
}

async function schedulerConfig(settings: ScheduleEnv, file: string | undefined): Promise<SchedulerConfig> {
  if (file) return loadConfig(file);
  if (settings.schedulerConfigJson) {
    const source = SCHEDULE_ENV.schedulerConfigJson;
    return resolveConfig(parseJsonConfig(settings.schedulerConfigJson, source), source);
  }
  return defaultConfig();
}

/** Where the function's code lives on Lambda; relative paths in the config resolve from there. */
function taskRoot(env: NodeJS.ProcessEnv): string {
  return env.LAMBDA_TASK_ROOT || process.cwd();
}
