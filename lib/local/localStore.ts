/** A FleetStore on dynalite: on disk under a locked data directory, or in memory. */
import type { StoreOptions } from '../store/context.js';
import { FleetStore } from '../store/fleetStore.js';
import { lockDataDir } from './dataDirLock.js';
import { type LocalDynamo, startLocalDynamo } from './dynalite.js';

export interface LocalStoreOptions {
  /** Keep the tables on disk here; in memory when absent. */
  dataDir?: string;
  /** Store tunables; `clock` is the store's wall clock. */
  store?: Partial<Omit<StoreOptions, 'doc' | 'tables'>>;
}

export interface LocalStore {
  dynamo: LocalDynamo;
  store: FleetStore;
  /** Stops dynalite (flushing the files) and releases the directory. */
  close(): Promise<void>;
}

export async function openLocalStore(options: LocalStoreOptions = {}): Promise<LocalStore> {
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  let dynamo: LocalDynamo;
  try {
    dynamo = await startLocalDynamo({ path: options.dataDir });
  } catch (error) {
    unlock();
    throw error;
  }
  const store = new FleetStore({ ...options.store, doc: dynamo.client, tables: dynamo.tableNames });
  return {
    dynamo,
    store,
    close: async () => {
      try {
        await dynamo.close();
      } finally {
        unlock();
      }
    },
  };
}
