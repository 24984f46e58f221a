import type { SchedulerConfig } from '../config/options.js';
import type { ScheduleDecision } from '../engine/explain.js';
import { createScheduler, loadPluginModules } from '../engine/registry.js';
import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { withPlacidFilters } from '../rebalance/filters/index.js';
import { readConfig, readHosts, readRequest } from './inputs.js';

export interface DecisionInputs {
  hosts: string;
  request: string;
  config?: string;
}

export interface Decided {
  config: SchedulerConfig;
  hosts: HostState[];
  spec: RequestSpec;
  decision: ScheduleDecision;
}

/**
 * Reads the inputs, builds the configured scheduler (with any plugin modules) and explains one
 * placement. `requestDoc`: the request file's JSON when the caller has read it already.
 */
export async function decide(inputs: DecisionInputs, requestDoc?: unknown): Promise<Decided> {
  const { config, baseDir } = await readConfig(inputs.config);
  const hosts = await readHosts(inputs.hosts);
  const spec = await readRequest(inputs.request, requestDoc);
  const scheduler = createScheduler(config, withPlacidFilters(await loadPluginModules(config, baseDir)));
  const decision = await scheduler.schedule(hosts, spec, { explain: true });
  return { config, hosts, spec, decision };
}
