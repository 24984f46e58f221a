/** The rebalancer's public surface: options, detection, steal model, migration cost and the planner. */

export type * from '../model/plan.js';
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
export { type FleetInput, hostObservation, parseFleetDocument, withInternedStates } from './fleetInput.js';
export {
  type MoveContext,
  type MoveRequestSpec,
  moveContextOf,
  type PlannedFleetView,
} from './moveContext.js';
export {
  REBALANCE_MODES,
  REBALANCE_OPTIONS,
  type RebalanceMode,
  type RebalanceOptionValues,
} from './options.js';
export { type Move, type Outcome, predictOutcome } from './outcome.js';
export { PREDICTED_STEAL_WEIGHT_MULTIPLIER, PredictedStealWeigher } from './PredictedStealWeigher.js';
export { planId } from './plan.js';
export { type PlannerInput, planRebalance } from './planner.js';
export { createPlannerScheduler, plannerConfig } from './plannerScheduler.js';
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
export { type WaveMove, WavePlanner, type WaveSettings, type WaveSlot } from './waves.js';
