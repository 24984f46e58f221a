/**
 * The deployed path's stand-in for bench/serving.ts: the schedule stage's real Function URL handler
 * (functions/schedule/urlHandler.ts, set up on first use from the environment as on Lambda: a
 * snapshot read synchronously per request) behind the local Function URL server. Prints its URL.
 *   PLACID_DYNAMODB_ENDPOINT=http://127.0.0.1:PORT npx tsx bench/urlHandlerServer.ts
 */
import { handler } from '../functions/schedule/urlHandler.js';
import { startFunctionUrlServer } from '../lib/local/functionUrlServer.js';

process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
const server = await startFunctionUrlServer(handler, {
  host: '127.0.0.1',
  port: 0,
  functionName: 'placid-url',
});
process.stdout.write(`listening on ${server.url}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
