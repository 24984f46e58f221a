/** The local store the detector commands share (`placid ingest` writes it): opened, used, closed. */
import { existsSync } from 'node:fs';
import type { LocalStore } from '../local/localStore.js';
import type { FleetStore } from '../store/fleetStore.js';
import { InputError } from './errors.js';

/** The exit statuses of a command over the local store; `badInput` lists what gives 2 besides a usage error. */
export function storeExitHelp(badInput: string): string {
  return `
Exit status:
  0  done
  2  bad input: no store at --data-dir, ${badInput}or a usage error
  3  internal error`;
}

export async function withLocalStore<T>(
  dataDir: string | undefined,
  use: (store: FleetStore, local: LocalStore) => Promise<T>,
  /** Run as of this time (`--at`): the store's clock stands still there. Default the system clock. */
  at?: Date,
  /** The config's `service_down_time`, which sets how far back host reads look for sightings. */
  serviceDownTimeSeconds?: number,
): Promise<T> {
  const [{ openLocalStore }, { defaultDataDir }] = await Promise.all([
    import('../local/localStore.js'),
    import('../local/dynalite.js'),
  ]);
  const dir = dataDir ?? defaultDataDir();
  if (!existsSync(dir)) {
    throw new InputError(
      `no local fleet store at ${dir}: run \`placid ingest FILE\` first, or pass --data-dir`,
    );
  }
  const local = await openLocalStore({
    dataDir: dir,
    store: { ...(at ? { clock: { now: () => at.getTime() } } : {}), serviceDownTimeSeconds },
  });
  try {
    return await use(local.store, local);
  } finally {
    await local.close();
  }
}
