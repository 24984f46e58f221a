/**
 * Placid's public engine API: what a custom filter or weigher needs, and nothing that can change
 * under it (plugin modules import from here only), and `createScheduler` for services that embed
 * the engine. Placid's own filters live above the engine (lib/rebalance/filters, lib/plugins) and
 * are passed in as built-ins: `createScheduler(config, withPlacidFilters())`.
 *
 * @example
 * // plugins/rackFilter.ts (listed in [filter_scheduler] available_filters)
 * import { defineFilter, PASS, PASS_ALL, reject, schedulerHint } from '../lib/engine/index.js';
 *
 * const OTHER_RACK = reject<string>((host, _spec, rack) => `host is in rack ${String(host.extra.rack)}, request asks for ${rack}`);
 *
 * export const RackFilter = defineFilter<string>({
 *   name: 'RackFilter',
 *   prepare: (spec) => {
 *     const rack = schedulerHint(spec, 'rack');
 *     return typeof rack === 'string' ? rack : PASS_ALL;
 *   },
 *   check: (host, _spec, rack) => (host.extra.rack === rack ? PASS : OTHER_RACK),
 * });
 */

export type { SchedulerConfig } from '../config/options.js';
export { ConfigError, PlacidError, ValidationError } from '../model/errors.js';
export { type Aggregate, type HostState, hostAttribute } from '../model/hostState.js';
export { isRebuild, type RequestSpec, schedulerHint } from '../model/requestSpec.js';
export { aggregateMetadata, aggregateNumber, aggregateValues } from './aggregates.js';
export type { EngineContext } from './context.js';
export type { DecisionJson } from './decisionJson.js';
export { PluginError } from './errors.js';
export {
  defineFilter,
  type HostFilter,
  PASS,
  PASS_ALL,
  type Pass,
  type PassAll,
  type Rejection,
  type RejectionWords,
  reject,
  rejectionMessage,
  type Verdict,
} from './filter.js';
export { BY_AGGREGATES, type HostGrouping } from './hostGroups.js';
export {
  createScheduler,
  type EmbeddedSchedule,
  type EmbeddedScheduler,
  type PreparedFleet,
} from './service.js';
export { type GroupingCheck, verifyGrouping } from './verifyGrouping.js';
export { ALL_ZERO, type AllZero, defineWeigher, type HostWeigher } from './weigher.js';
export { configMultiplier } from './weighers/multiplier.js';
