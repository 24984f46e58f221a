/**
 * What a custom filter or weigher needs from the engine, and nothing that can change under it
 * (index.ts re-exports it all). Built-in plug-ins import this module rather than index.ts, so
 * loading them does not load the embedding API's schemas (zod): `placid schedule` starts without.
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
  BY_AGGREGATES,
  defineFilter,
  type HostFilter,
  type HostGrouping,
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
export { ALL_ZERO, type AllZero, defineWeigher, type HostWeigher } from './weigher.js';
export { configMultiplier } from './weighers/multiplier.js';
