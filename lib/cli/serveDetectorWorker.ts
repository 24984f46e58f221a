/**
 * The detector of `placid serve` in a worker thread of its own (serveDetectorThread.ts starts it):
 * a detection at a thousand hosts is seconds of CPU, which on the server's thread would hold up
 * every advisory answer behind it. The thread has its own SDK clients on the same store endpoint,
 * so it shares nothing with the request thread but the store; it runs `placid detect`'s rounds on
 * request and answers with the lines to print.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LocalDynamo } from '../local/dynalite.js';
import { systemClock } from '../model/clock.js';
import { createDocumentClient, createDynamoClient } from '../store/client.js';
import { FleetStore } from '../store/fleetStore.js';
import { describeRound, detectRounds } from './detectRounds.js';
import { readPlanConfig } from './planConfig.js';
import type { DetectorThreadData, FromDetector, ToDetector } from './serveDetectorProtocol.js';

const port = parentPort;
if (!port) throw new Error('serveDetectorWorker runs only as a worker thread');
const data = (workerData as { options: DetectorThreadData }).options;

const dynamoClient = createDynamoClient({ endpoint: data.endpoint });
const client = createDocumentClient(dynamoClient);
const dynamo: LocalDynamo = {
  endpoint: data.endpoint,
  client,
  dynamo: dynamoClient,
  tableNames: data.tableNames,
  close: async () => client.destroy(),
};
const store = new FleetStore({ doc: client, tables: data.tableNames, clock: systemClock });
const plan = await readPlanConfig(data.config);

async function runOnce(): Promise<FromDetector> {
  try {
    const rounds = await detectRounds({
      store,
      dynamo,
      plan,
      clock: systemClock,
      endpoints: data.endpoints,
      settings: data.settings,
      template: data.template,
    });
    return { type: 'ran', lines: rounds.flatMap(describeRound) };
  } catch (error) {
    return { type: 'ran', lines: [], error: String(error) };
  }
}

port.on('message', (message: ToDetector) => {
  if (message.type === 'run') {
    void runOnce().then((reply) => port.postMessage(reply));
  } else {
    // Asked only between runs: nothing is in flight on these clients.
    client.destroy();
    port.close();
  }
});
port.postMessage({ type: 'ready' } satisfies FromDetector);
