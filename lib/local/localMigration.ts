/**
 * What `placid migrate` runs the workflow with: the local store (leases, records, the VM's report,
 * the fleet for the placement re-check), the settings, and either simulated drivers on a manual
 * clock (each poll moves it on by the poll interval, so the run is instant but the times are real)
 * or the real drivers connected from an endpoints file.
 */
import { readFile } from 'node:fs/promises';
import { type Clock, ManualClock, systemClock } from '../model/clock.js';
import { ConfigError } from '../model/errors.js';
import type { MigrationInput } from '../model/migration.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { StepRequest } from '../workflow/dispatch.js';
import type { StepDeps } from '../workflow/ports.js';

export interface LocalMigrationOptions {
  instance: string;
  to: string;
  dataDir?: string;
  /** JSON credentials file (`openstack`, `kubernetes`, `consul`): real drivers instead of simulated ones. */
  endpoints?: string;
  /** Workflow settings as a JSON file. */
  settings?: string;
  seed?: number;
  failureRate?: number;
  skipPlacementCheck?: boolean;
}

export interface LocalMigration {
  migration: MigrationInput;
  deps: StepDeps;
  simulated: boolean;
  beforeStep?: (request: StepRequest) => void;
  close(): Promise<void>;
}

export async function openLocalMigration(args: LocalMigrationOptions): Promise<LocalMigration> {
  const [{ openLocalStore }, { defaultDataDir }, workflow, rebalance] = await Promise.all([
    import('./localStore.js'),
    import('./dynalite.js'),
    import('../workflow/index.js'),
    import('../rebalance/settings.js'),
  ]);
  const simulated = !args.endpoints;
  const clock = simulated ? new ManualClock(Date.now()) : systemClock;
  const now = () => new Date(clock.now());
  const local = await openLocalStore({ dataDir: args.dataDir ?? defaultDataDir(), store: { clock } });
  try {
    const { store } = local;
    const { migration, instance } = await workflow.adHocMigration(store, {
      instanceUuid: args.instance,
      dest: args.to,
      now: now(),
      cost: rebalance.defaultRebalanceSettings(),
    });
    const { deps, beforeStep } = await localStepDeps(store, instance, clock, args);
    return { migration, deps, simulated, beforeStep, close: () => local.close() };
  } catch (error) {
    await local.close();
    throw error;
  }
}

/**
 * The step dependencies of one local migration of `instance` over `store`: simulated drivers on
 * `clock` (a ManualClock) unless `options.endpoints` names real credentials. `beforeStep` lets the
 * simulated time pass that the runner's zeroed Wait states skip.
 */
export async function localStepDeps(
  store: FleetStore,
  instance: Parameters<typeof simulatedDriversFor>[0],
  clock: Clock,
  options: Omit<LocalMigrationOptions, 'instance' | 'to' | 'dataDir'>,
): Promise<{ deps: StepDeps; beforeStep?: (request: StepRequest) => void }> {
  const workflow = await import('../workflow/index.js');
  const settings = workflow.parseWorkflowSettings(
    await readJson(options.settings),
    options.settings ?? 'workflow settings',
  );
  const drivers = options.endpoints
    ? workflow.lazyDrivers((await import('../drivers/credentials.js')).fileSecrets(options.endpoints))
    : await simulatedDriversFor(instance, clock as ManualClock, options);
  const deps: StepDeps = {
    settings,
    clock,
    leases: store,
    records: workflow.storeRecorder(store, settings.record_retention_days),
    steal: workflow.storeStealReader(store),
    placement: options.skipPlacementCheck ? workflow.trustThePlan : await enginePlacement(store, clock),
    ...drivers,
  };
  const beforeStep = options.endpoints
    ? undefined
    : (request: StepRequest) => {
        // The Wait state the runner skips: simulated time still passes.
        if (request.step === 'pollMigration')
          (clock as ManualClock).advance((request.state.live?.poll_interval_seconds ?? 0) * 1000);
      };
  return { deps, beforeStep };
}

async function simulatedDriversFor(
  instance: Parameters<typeof import('../drivers/simulated/index.js')['fleetAroundVm']>[0],
  clock: ManualClock,
  args: Pick<LocalMigrationOptions, 'seed' | 'failureRate'>,
) {
  const { fleetAroundVm, simulatedDrivers } = await import('../drivers/simulated/index.js');
  const rate = args.failureRate ?? 0;
  const fleet = fleetAroundVm(instance, {
    clock,
    seed: args.seed,
    failures: { migration: rate, novaUnavailable: rate },
  });
  return simulatedDrivers(fleet);
}

async function enginePlacement(store: FleetStore, clock: Clock) {
  const [{ createScheduler }, { defaultConfig }, { FleetSnapshot }, { enginePlacementChecker }] =
    await Promise.all([
      import('../engine/registry.js'),
      import('../config/options.js'),
      import('../schedule/snapshot.js'),
      import('../workflow/placementCheck.js'),
    ]);
  return enginePlacementChecker({
    store,
    snapshot: new FleetSnapshot(store),
    scheduler: createScheduler(defaultConfig()),
    clock,
  });
}

async function readJson(path: string | undefined): Promise<unknown> {
  if (!path) return {};
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`cannot read workflow settings ${path}: ${(error as Error).message}`);
  }
}
