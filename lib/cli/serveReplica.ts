/**
 * `placid serve --replica`: the decision API next to nova-scheduler, over the deployed tables and
 * read-only. The AWS SDK's own credential chain and region; table names as the stack gives them
 * to its Lambdas (PLACID_TABLE_<NAME>), else `<prefix><name>`; no table created, no detector, no
 * lock on a data directory, nothing written (advisory decisions are recorded by the Function URL
 * only). Its snapshot is refreshed in the background, and when the tables stop answering it keeps
 * deciding on the last one and says so (`stale_snapshot`, GET /health).
 */
import { createDocumentClient } from '../store/client.js';
import { FleetStore } from '../store/fleetStore.js';
import { tableNamesFromEnv } from '../store/tables.js';

export interface ReplicaOptions {
  /** A DynamoDB endpoint (DynamoDB Local, tests); else AWS_ENDPOINT_URL_DYNAMODB or the region's. */
  endpoint?: string;
  /** Physical table names `<prefix><name>` for tables PLACID_TABLE_<NAME> does not name. */
  tablePrefix?: string;
}

/** The replica's store: reads only, with the SDK's credentials and region. */
export function openReplicaStore(
  options: ReplicaOptions,
  serviceDownTimeSeconds: number,
  env: NodeJS.ProcessEnv = process.env,
): { store: FleetStore; label: string; close(): void } {
  const doc = createDocumentClient({ endpoint: options.endpoint, credentialChain: true });
  const tables = tableNamesFromEnv(env, options.tablePrefix);
  const store = new FleetStore({ doc, tables, serviceDownTimeSeconds });
  const where = options.endpoint ?? env.AWS_ENDPOINT_URL_DYNAMODB ?? 'DynamoDB';
  return { store, label: `replica of ${tables.hosts} at ${where}`, close: () => doc.destroy() };
}
