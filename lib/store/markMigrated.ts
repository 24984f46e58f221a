/**
 * The migration workflow's write to an instance item: when the VM last moved, and where to. The
 * agents' reports carry `last_migrated_at` too; instanceWrites.ts never lowers it.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sendIfCondition } from './conditionalWrite.js';
import type { StoreContext } from './context.js';
import { WriteConflictError } from './errors.js';

/** Concurrent report writes can race the read-modify-write of an instance item; this many tries. */
const MARK_ATTEMPTS = 4;

/**
 * Sets `last_migrated_at` inside the stored report (what the planner's cooldown reads) and as a
 * top-level attribute; with `host`, also moves the VM there, so the fleet view, the planner and a
 * repeated `placid migrate` see where it is now rather than where the last report put it (the next
 * report, newer, replaces all of it). Conditional on the report being unchanged since it was read;
 * an instance with no stored report is left alone (its migration record still counts for the cooldown).
 */
export async function markMigrated(
  ctx: StoreContext,
  instanceUuid: string,
  at: string,
  host?: string,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { Item } = await ctx.doc.send(
      new GetCommand({ TableName: ctx.tables.instances, Key: { uuid: instanceUuid }, ConsistentRead: true }),
    );
    if (!Item) return;
    const state = JSON.parse(String(Item.state)) as {
      last_migrated_at?: string | null;
      host?: string;
      nodename?: string;
    };
    if (state.last_migrated_at && Date.parse(state.last_migrated_at) >= Date.parse(at)) return;
    // Nova names a libvirt compute node after its host; the destination's node is not known here.
    const placed = host === undefined ? {} : { host, nodename: host };
    const attributes = host === undefined ? '' : ', #host = :host, #nodename = :host';
    const marked = await sendIfCondition(
      ctx,
      new UpdateCommand({
        TableName: ctx.tables.instances,
        Key: { uuid: instanceUuid },
        UpdateExpression: `SET #state = :state, #last = :at${attributes}`,
        ConditionExpression: '#reported_at = :reported_at',
        ExpressionAttributeNames: {
          '#state': 'state',
          '#last': 'last_migrated_at',
          '#reported_at': 'reported_at',
          ...(host === undefined ? {} : { '#host': 'host', '#nodename': 'nodename' }),
        },
        ExpressionAttributeValues: {
          ':state': JSON.stringify({ ...state, ...placed, last_migrated_at: at }),
          ':at': at,
          ':reported_at': Item.reported_at,
          ...(host === undefined ? {} : { ':host': host }),
        },
      }),
    );
    if (marked) return;
    if (attempt >= MARK_ATTEMPTS) {
      throw new WriteConflictError(
        `instance ${instanceUuid}: its report kept changing while last_migrated_at was set`,
      );
    }
  }
}
