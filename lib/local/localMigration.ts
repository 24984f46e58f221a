/**
 * What `placid migrate` runs the workflow with: the local store (leases, records, the VM's report,
 * the fleet for the placement re-check), the settings, and either simulated drivers on a manual
 * clock (each poll moves it on by the poll interval, so the run is instant but the times are real)
 * or the real drivers connected from an endpoints file.
 */
import { readFile } from 'node:fs/promises';
import type { SimulatedFleet } from '../drivers/simulated/fleet.js';
import { type Clock, ManualClock, systemClock } from '../model/clock.js';
import { ConfigError } from '../model/errors.js';
import type { MigrationInput } from '../model/migration.js';
import type { FleetStore } from '../store/fleetStore.js';
import { adHocMigration } from '../workflow/adHoc.js';
import type { StepName } from '../workflow/dispatch.js';
import { type DriverDeps, lazyDrivers } from '../workflow/drivers.js';
import { enginePlacementChecker, trustThePlan } from '../workflow/placementCheck.js';
import type { PlacementChecker, StepDeps } from '../workflow/ports.js';
import { storeRecorder, storeStealReader } from '../workflow/records.js';
import { parseWorkflowSettings, type WorkflowSettings } from '../workflow/settings.js';
import type { StepRequest } from '../workflow/stepRequest.js';

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
  beforeStep?: (request: StepRequest<StepName>) => void;
  close(): Promise<void>;
}

export async function openLocalMigration(args: LocalMigrationOptions): Promise<LocalMigration> {
  const [{ openLocalStore }, { defaultDataDir }, rebalance] = await Promise.all([
    import('./localStore.js'),
    import('./dynalite.js'),
    import('../rebalance/settings.js'),
  ]);
  const simulated = !args.endpoints;
  const clock = simulated ? new ManualClock(Date.now()) : systemClock;
  const now = () => new Date(clock.now());
  const local = await openLocalStore({ dataDir: args.dataDir ?? defaultDataDir(), store: { clock } });
  try {
    const { store } = local;
    const { migration, instance } = await adHocMigration(store, {
      instanceUuid: args.instance,
      dest: args.to,
      now: now(),
      cost: rebalance.defaultRebalanceSettings(),
    });
    const { deps, beforeStep } = await waveStepDeps(
      await openLocalWave(store, clock, args),
      store,
      clock,
      instance,
    );
    return { migration, deps, simulated, beforeStep, close: () => local.close() };
  } catch (error) {
    await local.close();
    throw error;
  }
}

/** How the local runner reads the `--settings` and `--endpoints` files; a test counts the reads. */
export type ReadText = (path: string) => Promise<string>;

export type LocalRunOptions = Omit<LocalMigrationOptions, 'instance' | 'to' | 'dataDir'> & {
  /** Default: the file system. */
  readText?: ReadText;
};

/**
 * What every migration of a wave shares, built once per wave rather than once per migration: the
 * settings and endpoints files read once, the real drivers (and so their connections and tokens),
 * and the placement re-check's scheduler and fleet snapshot. A file edited mid-wave (a rotated
 * credential included) is read again by the next wave.
 */
export interface LocalWave {
  settings: WorkflowSettings;
  placement: PlacementChecker;
  /** The real drivers when `endpoints` names credentials; absent: simulated around each VM. */
  drivers?: DriverDeps;
  options: LocalRunOptions;
}

/**
 * The wave's shared parts. `store` and `clock` are the placement re-check's: a simulated wave
 * passes a clock standing at the wave's start, which is when each of its migrations checks.
 */
export async function openLocalWave(
  store: FleetStore,
  clock: Clock,
  options: LocalRunOptions,
): Promise<LocalWave> {
  const read = onePerPath(options.readText ?? ((path) => readFile(path, 'utf8')));
  const settings = parseWorkflowSettings(
    await readSettings(options.settings, read),
    options.settings ?? 'workflow settings',
  );
  let drivers: DriverDeps | undefined;
  if (options.endpoints) {
    const secrets = (await import('../drivers/credentials.js')).fileSecrets(options.endpoints, read);
    // Read now: an unreadable file is a usage error before anything starts, not a failed step.
    await secrets.loadSecret('openstack');
    drivers = lazyDrivers(secrets);
  }
  const placement = options.skipPlacementCheck ? trustThePlan : await enginePlacement(store, clock);
  return { settings, placement, drivers, options };
}

/**
 * The step dependencies of one migration of `instance` in `wave`, over `store` on `clock`: the
 * wave's real drivers, or simulated ones around the VM on `clock` (a ManualClock). `beforeStep`
 * lets the simulated time pass that the runner's zeroed Wait states skip.
 */
export async function waveStepDeps(
  wave: LocalWave,
  store: FleetStore,
  clock: Clock,
  instance: Parameters<typeof simulatedDriversFor>[0],
): Promise<{ deps: StepDeps; beforeStep?: (request: StepRequest<StepName>) => void }> {
  const { settings } = wave;
  const drivers = wave.drivers ?? (await simulatedDriversFor(instance, clock as ManualClock, wave.options));
  const deps: StepDeps = {
    settings,
    clock,
    leases: store,
    records: storeRecorder(store, settings.record_retention_days),
    steal: storeStealReader(store),
    placement: wave.placement,
    ...drivers,
  };
  const beforeStep = wave.drivers
    ? undefined
    : (request: StepRequest<StepName>) => {
        // The Wait state the runner skips: simulated time still passes.
        if (request.step === 'pollMigration')
          (clock as ManualClock).advance((request.state.live?.poll_interval_seconds ?? 0) * 1000);
      };
  return { deps, beforeStep };
}

/** Simulated drivers over a fleet holding just `instance`: its server, node pods and agent. */
async function simulatedDriversFor(
  instance: Parameters<SimulatedFleet['addVm']>[0],
  clock: ManualClock,
  args: Pick<LocalMigrationOptions, 'seed' | 'failureRate'>,
) {
  const [{ SimulatedFleet }, { simulatedDrivers }] = await Promise.all([
    import('../drivers/simulated/fleet.js'),
    import('../drivers/simulated/index.js'),
  ]);
  const rate = args.failureRate ?? 0;
  const failures = { migration: rate, novaUnavailable: rate };
  const fleet = new SimulatedFleet({ clock, seed: args.seed, failures });
  fleet.addVm(instance, instance.kubernetes_node ?? '');
  return simulatedDrivers(fleet);
}

async function enginePlacement(store: FleetStore, clock: Clock) {
  const [{ createScheduler }, { defaultConfig }, { FleetSnapshot }] = await Promise.all([
    import('../engine/registry.js'),
    import('../config/options.js'),
    import('../schedule/snapshot.js'),
  ]);
  return enginePlacementChecker({
    store,
    snapshot: new FleetSnapshot(store),
    scheduler: createScheduler(defaultConfig()),
    clock,
  });
}

/** Reads each path at most once: the settings and endpoints files, however many secrets load. */
function onePerPath(read: ReadText): ReadText {
  const texts = new Map<string, Promise<string>>();
  return (path) => {
    let text = texts.get(path);
    if (!text) {
      text = read(path);
      texts.set(path, text);
    }
    return text;
  };
}

async function readSettings(path: string | undefined, read: ReadText): Promise<unknown> {
  if (!path) return {};
  try {
    return JSON.parse(await read(path));
  } catch (error) {
    throw new ConfigError(`cannot read workflow settings ${path}: ${(error as Error).message}`);
  }
}
