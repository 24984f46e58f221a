/** Gives a claim's resources back, e.g. when a build fails before the host ever reports the instance. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sendIfCondition } from './conditionalWrite.js';
import type { StoreContext } from './context.js';
import type { Claim } from './hostItems.js';

/**
 * Removes claim `claimId` from host/nodename and subtracts what it held. Returns false when there
 * is no such claim (already released, expired into a report, or never made).
 */
export async function releaseClaim(
  ctx: StoreContext,
  host: string,
  nodename: string,
  claimId: string,
): Promise<boolean> {
  const { Item } = await ctx.doc.send(
    new GetCommand({ TableName: ctx.tables.hosts, Key: { host, nodename }, ConsistentRead: true }),
  );
  const claim = Item?.claims?.[claimId] as Claim | undefined;
  if (!claim) return false;
  return sendIfCondition(
    ctx,
    new UpdateCommand({
      TableName: ctx.tables.hosts,
      Key: { host, nodename },
      UpdateExpression:
        'REMOVE #claims.#id SET #updated_at = :now ' +
        'ADD #used_vcpus :vcpus, #used_memory_mb :memory_mb, #used_disk_mb :disk_mb, #version :one',
      // The same claim we read: a report may have retired it, or a new one reused the id, meanwhile.
      ConditionExpression: '#claims.#id.#claimed_at = :claimed_at',
      ExpressionAttributeNames: {
        '#claims': 'claims',
        '#id': claimId,
        '#claimed_at': 'claimed_at',
        '#updated_at': 'updated_at',
        '#used_vcpus': 'used_vcpus',
        '#used_memory_mb': 'used_memory_mb',
        '#used_disk_mb': 'used_disk_mb',
        '#version': 'version',
      },
      ExpressionAttributeValues: {
        ':claimed_at': claim.claimed_at,
        ':now': ctx.clock.now(),
        ':vcpus': -claim.vcpus,
        ':memory_mb': -claim.memory_mb,
        ':disk_mb': -claim.disk_mb,
        ':one': 1,
      },
    }),
  );
}
