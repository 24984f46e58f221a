/**
 * The harness's store seen through a DynamoDB client of its own, whose requests are counted (and
 * may be held back): how many a run makes, of which kind, on which table.
 */
import type { DetectorDeps } from '../../lib/detector/index.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import type { Harness, StoreHarness } from './harness.js';

export interface Request {
  /** e.g. GetItemCommand, UpdateItemCommand. */
  command: string;
  table: string;
}

export interface CountedStore {
  deps: DetectorDeps;
  requests: Request[];
  /** Holds every request for which `when` is true until `release` resolves. */
  hold(when: (r: Request) => boolean, release: Promise<unknown>): void;
  close(): void;
}

export function countedStore(dynamo: StoreHarness, h: Harness): CountedStore {
  const doc = createDocumentClient({ endpoint: dynamo.local.endpoint });
  const requests: Request[] = [];
  const holds: { when: (r: Request) => boolean; release: Promise<unknown> }[] = [];
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TableName?: string };
      const request = { command: String(context.commandName), table: String(input.TableName) };
      requests.push(request);
      for (const hold of holds) if (hold.when(request)) await hold.release;
      return next(args);
    },
    { step: 'initialize', name: 'countRequests' },
  );
  const store = new FleetStore({ ...h.store.ctx, doc });
  return {
    deps: { ...h.deps, store },
    requests,
    hold: (when, release) => holds.push({ when, release }),
    close: () => doc.destroy(),
  };
}
