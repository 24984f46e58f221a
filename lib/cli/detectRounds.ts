/**
 * One local detector run, as `placid detect` and `placid serve` both do it: reconcile, execute
 * what it sent through the local state machine (what the cloud's plan starter and Step Functions
 * do), and reconcile again for the next wave until a run sends nothing.
 */

import type { ReconcileResult } from '../detector/index.js';
import type { LocalDynamo } from '../local/dynalite.js';
import type { ExecutedMigration } from '../local/planExecution.js';
import type { Clock } from '../model/clock.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { PlanConfig } from './planConfig.js';
import type { WorkflowFiles } from './workflowOptions.js';

/** A plan has at most this many waves in practice; the bound only stops a detector gone wrong. */
const MAX_ROUNDS = 50;

export interface Round {
  result: ReconcileResult;
  executed: ExecutedMigration[];
}

export interface DetectRoundsOptions extends WorkflowFiles {
  store: FleetStore;
  dynamo: LocalDynamo;
  plan: PlanConfig;
  clock: Pick<Clock, 'now'>;
  /** False: send only, execute nothing (records stay `queued`). Default true. */
  execute?: boolean;
  /** Read every node's window instead of the window digests (the reference read). */
  fullRead?: boolean;
}

export async function detectRounds(options: DetectRoundsOptions): Promise<Round[]> {
  const [{ reconcile }, { LocalSqsQueue }] = await Promise.all([
    import('../detector/index.js'),
    import('../local/sqsQueue.js'),
  ]);
  const { store, plan, clock } = options;
  const done: Round[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const planQueue = new LocalSqsQueue({ name: 'placid-plans' });
    const result = await reconcile({
      store,
      planQueue,
      settings: plan.settings,
      config: plan.config,
      plugins: plan.plugins,
      clock,
      fullRead: options.fullRead,
    });
    const executed =
      options.execute === false || result.sent.length === 0
        ? []
        : await (await import('../local/planExecution.js')).executePlanMessages(options.dynamo, result.sent, {
            endpoints: options.endpoints,
            settings: options.settings,
            template: options.template,
            at: new Date(clock.now()),
          });
    done.push({ result, executed });
    if (executed.length === 0) break;
  }
  return done;
}

/** A round as lines for people: the plan made, what was sent, executed, expired, completed. */
export function describeRound({ result, executed }: Round): string[] {
  const lines: string[] = [];
  if (result.plan) {
    const p = result.plan;
    lines.push(
      `plan ${p.plan_id} (${p.status}): ${p.summary.moved} migration(s) in ${p.summary.waves} wave(s), expires ${p.expires_at}`,
    );
    if (p.status === 'pending_approval') lines.push(`  approve with: placid approve ${p.plan_id}`);
  }
  if (result.idle) lines.push(`no new plan: ${result.idle}`);
  for (const m of result.sent)
    lines.push(`sent ${m.migration_id}: ${m.instance_uuid} ${m.source_host} -> ${m.dest_host}`);
  for (const e of executed) {
    const where = e.final_host ? `, VM on ${e.final_host}` : '';
    const why = e.status === 'succeeded' ? '' : `: ${e.error}: ${e.cause}`;
    lines.push(`${e.status} ${e.migration_id}${where}${why}`);
  }
  for (const id of result.expired) lines.push(`expired ${id}`);
  for (const id of result.completed ?? []) lines.push(`completed ${id}`);
  return lines;
}
