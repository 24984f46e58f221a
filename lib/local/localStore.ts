/**
 * A FleetStore on dynalite: on disk through the data directory's store server (shared by every
 * placid process, storeServer.ts), or in memory; or on a DynamoDB endpoint that is already running
 * (DynamoDB Local, or dynalite in another process).
 */
import { createDocumentClient, createDynamoClient } from '../store/client.js';
import type { StoreOptions } from '../store/context.js';
import { createTables } from '../store/createTables.js';
import { FleetStore } from '../store/fleetStore.js';
import { tableNames } from '../store/tables.js';
import { type LocalDynamo, startLocalDynamo } from './dynalite.js';
import { connectStoreServer } from './storeServer.js';

export interface LocalStoreOptions {
  /** Keep the tables on disk here (through its store server); in memory when absent. */
  dataDir?: string;
  /** Use this endpoint instead of starting dynalite (tables are created if missing); excludes dataDir. */
  endpoint?: string;
  /** Store tunables; `clock` is the store's wall clock. */
  store?: Partial<Omit<StoreOptions, 'doc' | 'tables'>>;
  /** Run an in-memory dynalite in a worker thread (dynaliteThread.ts). */
  dynaliteThread?: boolean;
}

export interface LocalStore {
  dynamo: LocalDynamo;
  store: FleetStore;
  /** Closes the clients (and an in-memory dynalite); the store server exits when unused. */
  close(): Promise<void>;
}

export async function openLocalStore(options: LocalStoreOptions = {}): Promise<LocalStore> {
  const server = options.dataDir && !options.endpoint ? await connectStoreServer(options.dataDir) : undefined;
  const unlock = server?.release ?? (() => {});
  let dynamo: LocalDynamo;
  try {
    const endpoint = options.endpoint ?? server?.endpoint;
    dynamo = endpoint
      ? await connectDynamo(endpoint)
      : await startLocalDynamo({ thread: options.dynaliteThread });
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
