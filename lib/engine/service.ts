import { type ConfigDocument, resolveConfig } from '../config/load.js';
import type { SchedulerConfig } from '../config/options.js';
import { ConfigError } from '../model/errors.js';
import { parseHostStates } from '../model/hostSchema.js';
import type { HostState } from '../model/hostState.js';
import { parseRequestSpec } from '../model/requestSchema.js';
import { type DecisionJson, decisionJson } from './decisionJson.js';
import { Fleet } from './fleet.js';
import { type Plugins, createScheduler as schedulerFor } from './registry.js';

/** Host states validated and indexed once, for any number of decisions (see `prepare`). */
export interface PreparedFleet {
  readonly hosts: readonly HostState[];
  /** @internal the engine's shared fleet */
  readonly fleet: Fleet;
}

export interface EmbeddedSchedule {
  /** Include every weighed host and every eliminated host with its reason (default true, as the CLI). */
  explain?: boolean;
  /** The decision's clock (ComputeFilter liveness); now by default. */
  now?: Date;
}

export interface EmbeddedScheduler {
  readonly config: SchedulerConfig;
  /** Validates plain JSON host states (HOSTS.json's shape) and indexes them for reuse. */
  prepare(hosts: unknown): PreparedFleet;
  /**
   * Places one request (REQUEST.json's shape, validated) on a prepared fleet or on plain JSON host
   * states, and returns what `placid schedule --json` prints.
   */
  schedule(
    fleetOrHosts: PreparedFleet | unknown,
    request: unknown,
    options?: EmbeddedSchedule,
  ): Promise<DecisionJson>;
}

/**
 * The engine for a service that embeds it: `config` is the JSON `placid --config file.json` reads
 * (option groups such as `filter_scheduler`; Nova's defaults for everything unset), `plugins` any
 * custom filters and weighers as objects (config entries that are module paths are for the CLI).
 * Bad input throws a typed error naming the field: ConfigError for the config, ValidationError for
 * hosts and requests.
 *
 * @example
 * const scheduler = createScheduler({ filter_scheduler: { host_subset_size: 2 } });
 * const fleet = scheduler.prepare(hostsJson);
 * const decision = await scheduler.schedule(fleet, requestJson, { explain: false });
 * decision.selected; // [{ host, nodename }]
 */
export function createScheduler(config: unknown = {}, plugins: Plugins = {}): EmbeddedScheduler {
  if (config === null || typeof config !== 'object' || Array.isArray(config))
    throw new ConfigError('config: expected an object of option groups, e.g. {"filter_scheduler": {...}}');
  const resolved = resolveConfig(config as ConfigDocument, 'config');
  const scheduler = schedulerFor(resolved, plugins);
  const prepare = (hosts: unknown): PreparedFleet => {
    const fleet = Fleet.from(parseHostStates(hosts, 'hosts'));
    return { hosts: fleet.hosts, fleet };
  };
  return {
    config: resolved,
    prepare,
    async schedule(fleetOrHosts, request, options = {}) {
      // Plain host states are for this decision alone: not laid out (see Fleet.of).
      const fleet = isPrepared(fleetOrHosts) ? fleetOrHosts.fleet : parseHostStates(fleetOrHosts, 'hosts');
      const spec = parseRequestSpec(request, 'request');
      const decision = await scheduler.schedule(fleet, spec, {
        explain: options.explain ?? true,
        now: options.now,
      });
      return decisionJson(decision, spec.num_instances);
    },
  };
}

function isPrepared(value: unknown): value is PreparedFleet {
  return (value as Partial<PreparedFleet> | null)?.fleet instanceof Fleet;
}
