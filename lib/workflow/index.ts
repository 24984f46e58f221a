/** The migration workflow: step cores, their ports, errors, input and settings. */

export { type MigrationInput, migrationInputSchema, parseMigrationInput } from '../model/migration.js';
export { type AdHocMigration, adHocMigration } from './adHoc.js';
export {
  AGENT_STEP_NAMES,
  AGENT_STEPS,
  type AgentStepName,
  CLOUD_STEP_NAMES,
  CLOUD_STEPS,
  type CloudStepName,
  dispatchAgentStep,
  dispatchCloudStep,
  STEP_NAMES,
  type StepName,
} from './dispatch.js';
export { DEFAULT_SECRET_NAMES, type DriverDeps, type DriverSecretNames, lazyDrivers } from './drivers.js';
export * from './errors.js';
export { executionNameFor, requireMigrationInput } from './input.js';
export { budgetSlots, candidateLeases, hostSlots, vmLease } from './leaseNames.js';
export { enginePlacementChecker, trustThePlan } from './placementCheck.js';
export type * from './ports.js';
export { maintenanceReason } from './reasons.js';
export {
  markMigrationRunning,
  putMigrationRecord,
  type RecordStore,
  storeRecorder,
  storeStealReader,
} from './records.js';
export {
  deadlineSeconds,
  leaseTtlMs,
  parseWorkflowSettings,
  WORKFLOW_SETTINGS_ENV,
  type WorkflowSettings,
  type WorkflowSettingsInput,
  workflowSettingsFromEnv,
} from './settings.js';
export { sfnExecutions } from './sfnExecutions.js';
export {
  ConcurrencyLimitError,
  type Executions,
  type StarterDeps,
  startPlannedMigrations,
} from './starter.js';
export type * from './state.js';
export type { StepRequest } from './stepRequest.js';
