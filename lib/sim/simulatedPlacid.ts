/**
 * Placid as the simulation runs it, all on the simulated clock: the local pipeline (dynalite, the
 * ingest stage and the plan queue with the real plan starter as its handler), the detector's
 * reconcile, and executions of the real state machine whose steps get the store (leases, records,
 * steal), the engine's placement re-check over the stored fleet, and the simulated Nova,
 * Kubernetes and Consul drivers over the world's VMs.
 */
import type { SchedulerConfig } from '../config/options.js';
import type { ReconcileResult } from '../detector/index.js';
import type { LocalPipeline } from '../local/pipeline.js';
import type { Clock } from '../model/clock.js';
import type { RebalanceSettings } from '../rebalance/settings.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { MigrationOutcome, StepDeps } from '../workflow/ports.js';
import { SimExecutions } from './executions.js';
import type { PhaseTimer } from './phaseTimer.js';
import { PLAN_STAGE, planStarterStage } from './planStage.js';
import { seedFor } from './random.js';
import type { SimSetup } from './setup.js';
import { SimClock } from './simClock.js';
import { WorldFleet } from './worldFleet.js';

/**
 * The store as the service runs it, but for the instance heartbeat: an unchanged instance state is
 * rewritten (to refresh its TTL) every 6 hours instead of every 15 minutes. The retention stays a
 * day, so the rule the store checks (heartbeat at most a quarter of it) holds; it saves the
 * simulation ~3,000 writes an hour that change nothing it measures.
 */
const STORE_TUNING = { instanceHeartbeatMs: 6 * 3_600_000 };

/** The liveness the simulation's readers judge by: its hosts report every few minutes (schedulerConfig.ts). */
async function livenessWindow(reportIntervalMinutes: number) {
  const { simSchedulerConfig } = await import('./schedulerConfig.js');
  return {
    serviceDownTimeSeconds: simSchedulerConfig(reportIntervalMinutes).DEFAULT.service_down_time,
    reportIntervalSeconds: reportIntervalMinutes * 60,
  };
}

/**
 * Ingest invocations in flight at once while a report round drains, as Lambda's SQS pollers run
 * several batches concurrently: one handler's requests then overlap another's, and the store's
 * thread works while this one parses.
 */
const INGEST_CONCURRENCY = 4;

/** How the stand-ins run; the defaults are the fast ones, and the results do not depend on them. */
export interface StackOptions {
  /** Run dynalite in a worker thread. Default true. */
  storeThread?: boolean;
  /** Ingest batches in flight at once. Default INGEST_CONCURRENCY. */
  ingestConcurrency?: number;
}

export interface SimulatedPlacid {
  clock: SimClock;
  fleet: WorldFleet;
  pipeline: LocalPipeline;
  executions: SimExecutions;
  outcomes: Map<string, MigrationOutcome>;
  /** Sends report messages through the ingest stage; a rejected report is a bug here, so it throws. */
  ingest(messages: string[]): Promise<void>;
  reconcile(deps: {
    store: FleetStore;
    settings: RebalanceSettings;
    config: SchedulerConfig;
  }): Promise<ReconcileResult>;
  leftovers(): Promise<{ leases: string[]; cordoned: string[]; maintenance: string[] }>;
  close(): Promise<void>;
}

export async function openSimulatedPlacid(
  setup: SimSetup,
  timer: PhaseTimer,
  options: StackOptions = {},
): Promise<SimulatedPlacid> {
  const { scenario, layout } = setup;
  const [pipelineModule, ingestModule, runner, definitionModule, detector, workflow, placement] =
    await timer.time('setup', () =>
      Promise.all([
        import('../local/pipeline.js'),
        import('../local/ingestPipelineStage.js'),
        import('../local/workflowRunner.js'),
        import('../local/workflowDefinition.js'),
        import('../detector/index.js'),
        import('../workflow/records.js'),
        placementModules(scenario.reportIntervalMinutes),
      ]),
    );
  // The definition the build emitted (read, not synthesized: milliseconds).
  const definition = await timer.time('setup', () => definitionModule.workflowDefinition());
  const clock = new SimClock(scenario.start.getTime());
  const fleet = new WorldFleet(layout, scenario, clock);
  const liveness = await livenessWindow(scenario.reportIntervalMinutes);
  const pipeline = await timer.time('setup', () =>
    pipelineModule.LocalPipeline.start({
      wallClock: clock,
      clock,
      stages: [
        ingestModule.ingestPipelineStage({ maxConcurrency: options.ingestConcurrency ?? INGEST_CONCURRENCY }),
      ],
      store: { ...STORE_TUNING, ...liveness },
      // The store's server on another core: the handlers' requests no longer wait for this one.
      dynaliteThread: options.storeThread ?? true,
    }),
  );
  const { store } = pipeline;
  const outcomes = new Map<string, MigrationOutcome>();
  const recorder = workflow.storeRecorder(store, scenario.workflow.record_retention_days);
  const deps: StepDeps = {
    settings: scenario.workflow,
    clock,
    leases: store,
    records: {
      ...recorder,
      record: async (outcome) => {
        outcomes.set(outcome.migration.migration_id, outcome);
        await recorder.record(outcome);
      },
    },
    steal: workflow.storeStealReader(store),
    placement: placement.checker(store, clock),
    ...(await import('../drivers/simulated/index.js')).simulatedDrivers(fleet),
  };
  const executions = new SimExecutions(
    clock,
    deps,
    definition,
    runner.runWorkflow,
    seedFor(scenario.seed, 'executions'),
  );
  pipeline.add(planStarterStage(executions, scenario.workflow.max_concurrent_migrations, clock));
  const planQueue = pipeline.queues(PLAN_STAGE).queue;
  return {
    clock,
    fleet,
    pipeline,
    executions,
    outcomes,
    ingest: async (messages) => {
      const { queue, deadLetter } = pipeline.queues(ingestModule.INGEST_STAGE);
      const sent = await queue.sendBatch(messages);
      const drained = await queue.drain({ waitForInvisible: false });
      const rejected = deadLetter.messages();
      if (sent.failed.length > 0 || rejected.length > 0 || drained.handlerErrors.length > 0) {
        const why = sent.failed[0]?.message ?? rejected[0]?.attributes ?? drained.handlerErrors[0];
        throw new Error(`a simulated report was not stored: ${JSON.stringify(why)}`);
      }
    },
    reconcile: (d) => detector.reconcile({ ...d, planQueue, clock, runId: 'simulation' }),
    leftovers: async () => ({
      leases: await store.heldLeases(),
      cordoned: [...fleet.nodes].filter(([, n]) => n.cordoned).map(([name]) => name),
      maintenance: [...fleet.maintenance].filter(([, reason]) => reason !== null).map(([node]) => node),
    }),
    close: () => pipeline.close(),
  };
}

/** The engine's re-check of a destination against the stored fleet, as the workflow Lambda does. */
async function placementModules(reportIntervalMinutes: number) {
  const [{ createScheduler }, { simSchedulerConfig }, { FleetSnapshot }, { enginePlacementChecker }] =
    await Promise.all([
      import('../engine/registry.js'),
      import('./schedulerConfig.js'),
      import('../schedule/snapshot.js'),
      import('../workflow/placementCheck.js'),
    ]);
  return {
    checker: (store: FleetStore, clock: Clock) =>
      enginePlacementChecker({
        store,
        snapshot: new FleetSnapshot(store),
        scheduler: createScheduler(simSchedulerConfig(reportIntervalMinutes)),
        clock,
      }),
  };
}
