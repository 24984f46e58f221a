/**
 * The local DynamoDB stand-in: dynalite in this process on 127.0.0.1 and a free port, with every
 * table created from lib/store/tables.ts. In memory by default (tests); on disk with `path` (CLI).
 */

import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { createDocumentClient, createDynamoClient } from '../store/client.js';
import { createTables } from '../store/createTables.js';
import { type TableNames, tableNames } from '../store/tables.js';
import { type DynaliteServer, startDynaliteThread } from './dynaliteThread.js';

export interface LocalDynamoOptions {
  /** Directory for the LevelDB files; created if missing. In memory when absent. */
  path?: string;
  /** Physical table names are `<prefix><logical name>`. */
  tablePrefix?: string;
  /** Run the server in a worker thread (dynaliteThread.ts), so it works on another core. */
  thread?: boolean;
}

export interface LocalDynamo {
  /** e.g. `http://127.0.0.1:41234`, for clients made elsewhere (other processes, the CLI's --endpoint). */
  endpoint: string;
  client: DynamoDBDocumentClient;
  dynamo: DynamoDBClient;
  tableNames: TableNames;
  /** Closes the clients and the server (flushing an on-disk store). */
  close(): Promise<void>;
}

/** Where the CLI keeps its local store unless told otherwise: `$XDG_DATA_HOME/placid/dynamo`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'placid', 'dynamo');
}

/** Starts dynalite and creates the tables; `close()` when done. */
export async function startLocalDynamo(options: LocalDynamoOptions = {}): Promise<LocalDynamo> {
  if (options.path) mkdirSync(options.path, { recursive: true });
  const server = options.thread
    ? await startDynaliteThread({ path: options.path })
    : await listenInProcess(options.path);
  const endpoint = `http://127.0.0.1:${server.port}`;
  const dynamo = createDynamoClient({ endpoint });
  const client = createDocumentClient(dynamo);
  const names = tableNames(options.tablePrefix);
  const close = async () => {
    client.destroy();
    await server.close();
  };
  try {
    await createTables(dynamo, names);
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoint, client, dynamo, tableNames: names, close };
}

async function listenInProcess(path: string | undefined): Promise<DynaliteServer> {
  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
