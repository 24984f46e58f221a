/** The rebalancer's public surface: options, detection, steal model and migration cost. */
export {
  type BlackoutWindow,
  blackoutAt,
  minutesUntilBlackout,
  nextAllowedStart,
  parseBlackoutWindow,
} from './blackout.js';
export {
  type Cooldown,
  type CooldownSettings,
  cooldownOf,
  pingPongReason,
  recentSources,
} from './cooldown.js';
export {
  type BlockMigration,
  type CostSettings,
  type MigratingVm,
  type MigrationCost,
  migrationCost,
  migrationRateMbps,
} from './cost.js';
export { type DetectInput, type DetectionSettings, detect } from './detect.js';
export { detectHost } from './detectHost.js';
export { detectVm } from './detectVm.js';
export {
  REBALANCE_MODES,
  REBALANCE_OPTIONS,
  type RebalanceMode,
  type RebalanceOptionValues,
} from './options.js';
export { readWindow, type WindowReading, type WindowSettings } from './samples.js';
export { defaultRebalanceSettings, parseRebalanceSettings, type RebalanceSettings } from './settings.js';
export {
  demandVcpus,
  effectiveCapacity,
  excessDemand,
  type HostLoad,
  hostSteal,
  type MoveEffect,
  moveEffect,
  predictedStealPercent,
  stealAfterAdding,
  stealAfterRemoving,
  withDemand,
} from './stealModel.js';
export type * from './types.js';
