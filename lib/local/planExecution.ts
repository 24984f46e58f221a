/**
 * Executes plan messages on one machine, as the plan starter and Step Functions do in the cloud:
 * each message runs through the real state machine (lib/local/workflowRunner.ts) with the
 * local store for leases and records, and simulated drivers over the VM's stored report, or the
 * real ones when an endpoints file names credentials. The workflow writes the record's outcome
 * and moves the VM in the store, so the detector's next run sees the wave finished.
 */

import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { type Clock, ManualClock, systemClock } from '../model/clock.js';
import type { MigrationInput, MigrationOutcomeStatus } from '../model/migration.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { StepName } from '../workflow/dispatch.js';
import type { StepRequest } from '../workflow/stepRequest.js';
import type { LocalDynamo } from './dynalite.js';
import type { LocalRunOptions, LocalWave } from './localMigration.js';

export type LocalExecutionOptions = LocalRunOptions & {
  /** A synthesized template instead of the definition the build emitted. */
  template?: string;
  /** Where simulated time starts. Default now. */
  at?: Date;
};

export interface ExecutedMigration {
  migration_id: string;
  instance_uuid: string;
  source_host: string;
  dest_host: string;
  status: MigrationOutcomeStatus;
  final_host: string | null;
  /** Error name and cause, unless it succeeded. */
  error?: string;
  cause?: string;
}

/**
 * Runs the messages one after another (a wave's migrations share no host, so order is free). What
 * they share is built once for the wave (lib/local/localMigration.ts). Simulated, each migration
 * starts at `at` on a clock of its own, as the wave's executions all start together in the cloud;
 * the placement re-check's clock stands at `at`, when each of them checks.
 */
export async function executePlanMessages(
  dynamo: LocalDynamo,
  messages: readonly MigrationInput[],
  options: LocalExecutionOptions = {},
): Promise<ExecutedMigration[]> {
  const [{ FleetStore }, { openLocalWave }, { workflowDefinition }] = await Promise.all([
    import('../store/fleetStore.js'),
    import('./localMigration.js'),
    import('./workflowDefinition.js'),
  ]);
  const start = options.at ?? new Date();
  const clockAtStart = (): Clock => (options.endpoints ? systemClock : new ManualClock(start));
  const storeOn = (clock: Clock) => new FleetStore({ doc: dynamo.client, tables: dynamo.tableNames, clock });
  const checkClock = clockAtStart();
  const wave = await openLocalWave(storeOn(checkClock), checkClock, options);
  // Read once; each run gets a copy, as the runner writes into the definition it is given.
  const definition = options.template ? workflowDefinition(options.template) : undefined;
  const executed: ExecutedMigration[] = [];
  for (const message of messages) {
    const clock = clockAtStart();
    const run = { wave, store: storeOn(clock), clock, definition: definition && structuredClone(definition) };
    executed.push(await executeOne(run, message));
  }
  return executed;
}

interface OneRun {
  wave: LocalWave;
  store: FleetStore;
  clock: Clock;
  definition: StateMachineDefinition | undefined;
}

async function executeOne(
  { wave, store, clock, definition }: OneRun,
  message: MigrationInput,
): Promise<ExecutedMigration> {
  const [{ waveStepDeps }, { runWorkflow }] = await Promise.all([
    import('./localMigration.js'),
    import('./workflowRunner.js'),
  ]);
  const simulated = !wave.drivers;
  const base = {
    migration_id: message.migration_id,
    instance_uuid: message.instance_uuid,
    source_host: message.source_host,
    dest_host: message.dest_host,
  };
  const instance = await store.getInstance(message.instance_uuid);
  if (!instance && simulated) {
    const cause =
      'the local store has no report of the VM to simulate it from: ingest one (placid ingest) or pass --endpoints to migrate on the real clouds';
    return { ...base, status: 'failed', final_host: null, error: 'MissingReport', cause };
  }
  const { deps, beforeStep } = await waveStepDeps(
    wave,
    store,
    clock,
    instance as Parameters<typeof waveStepDeps>[3],
  );
  const run = await runWorkflow({
    deps,
    input: message,
    executionName: message.migration_id,
    instant: simulated,
    beforeStep: beforeStep as ((request: StepRequest<StepName>) => void) | undefined,
    definition,
  });
  if (run.status === 'FAILED') {
    return { ...base, status: 'failed', final_host: null, error: run.error, cause: run.cause };
  }
  const rollback = run.output?.rollback as
    | { status?: MigrationOutcomeStatus; final_host?: string | null }
    | undefined;
  if (rollback) {
    const failure = run.output?.failure as { Error?: string; Cause?: string } | undefined;
    return {
      ...base,
      status: rollback.status ?? 'deferred',
      final_host: rollback.final_host ?? null,
      error: failure?.Error,
      cause: failure?.Cause,
    };
  }
  const outcome = run.output?.outcome as { final_host?: string | null } | undefined;
  return { ...base, status: 'succeeded', final_host: outcome?.final_host ?? message.dest_host };
}
