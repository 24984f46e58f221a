/**
 * A FleetStore on dynalite: on disk under a locked data directory, or in memory; or on a DynamoDB
 * endpoint that is already running (DynamoDB Local, or dynalite in another process).
 */
import { createDocumentClient, createDynamoClient } from '../store/client.js';
import type { StoreOptions } from '../store/context.js';
import { createTables } from '../store/createTables.js';
import { FleetStore } from '../store/fleetStore.js';
import { tableNames } from '../store/tables.js';
import { lockDataDir } from './dataDirLock.js';
import { type LocalDynamo, startLocalDynamo } from './dynalite.js';

export interface LocalStoreOptions {
  /** Keep the tables on disk here; in memory when absent. */
  dataDir?: string;
  /** Use this endpoint instead of starting dynalite (tables are created if missing); excludes dataDir. */
  endpoint?: string;
  /** Store tunables; `clock` is the store's wall clock. */
  store?: Partial<Omit<StoreOptions, 'doc' | 'tables'>>;
  /** Run the dynalite this starts in a worker thread (dynaliteThread.ts). */
  dynaliteThread?: boolean;
}

export interface LocalStore {
  dynamo: LocalDynamo;
  store: FleetStore;
  /** Stops dynalite (flushing the files) and releases the directory. */
  close(): Promise<void>;
}

export async function openLocalStore(options: LocalStoreOptions = {}): Promise<LocalStore> {
  const unlock = options.dataDir && !options.endpoint ? lockDataDir(options.dataDir) : () => {};
  let dynamo: LocalDynamo;
  try {
    dynamo = options.endpoint
      ? await connectDynamo(options.endpoint)
      : await startLocalDynamo({ path: options.dataDir, thread: options.dynaliteThread });
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

async function connectDynamo(endpoint: string): Promise<LocalDynamo> {
  const dynamo = createDynamoClient({ endpoint });
  const client = createDocumentClient(dynamo);
  const names = tableNames();
  await createTables(dynamo, names);
  return { endpoint, client, dynamo, tableNames: names, close: async () => client.destroy() };
}
