/**
 * Leases: a named lock with an owner and an expiry, taken with one conditional write. An expired
 * lease can be taken over. Each acquisition bumps a fencing `token`, so a holder that paused past
 * its expiry can be told apart from the new one by whatever it writes to.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sendIfCondition, updateIfCondition } from './conditionalWrite.js';
import { epochSeconds, type StoreContext } from './context.js';
import { scanAll } from './paginate.js';

export interface Lease {
  name: string;
  owner: string;
  /** Epoch ms. */
  expires_at_ms: number;
  /** Grows with every acquisition (renewals included), never reused. */
  token: number;
}

/**
 * Takes or renews lease `name` for `owner` for `ttlMs`. Succeeds when the lease is free, expired,
 * or already held by `owner`; returns undefined when someone else holds it.
 */
export async function acquireLease(
  ctx: StoreContext,
  name: string,
  owner: string,
  ttlMs: number,
): Promise<Lease | undefined> {
  if (!(ttlMs > 0)) throw new RangeError(`lease ttlMs must be > 0, got ${ttlMs}`);
  const now = ctx.clock.now();
  const until = now + ttlMs;
  const written = await updateIfCondition(
    ctx,
    new UpdateCommand({
      TableName: ctx.tables.leases,
      Key: { name },
      UpdateExpression: 'SET #owner = :owner, #until = :until, #expires_at = :ttl ADD #token :one',
      ConditionExpression: 'attribute_not_exists(#name) OR #until <= :now OR #owner = :owner',
      ExpressionAttributeNames: {
        '#name': 'name',
        '#owner': 'owner',
        '#until': 'lease_until',
        '#expires_at': 'expires_at',
        '#token': 'token',
      },
      ExpressionAttributeValues: {
        ':owner': owner,
        ':until': until,
        // Keep the item (and its token) a day past expiry, so tokens keep growing after takeovers.
        ':ttl': epochSeconds(until) + 86_400,
        ':now': now,
        ':one': 1,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  if (!written) return undefined;
  return { name, owner, expires_at_ms: until, token: Number(written.Attributes?.token) };
}

/** Ends `owner`'s hold on lease `name` now; false when `owner` does not hold it. */
export function releaseLease(ctx: StoreContext, name: string, owner: string): Promise<boolean> {
  return sendIfCondition(
    ctx,
    new UpdateCommand({
      TableName: ctx.tables.leases,
      Key: { name },
      // Expire instead of delete: deleting would reset the fencing token.
      UpdateExpression: 'SET #until = :zero',
      ConditionExpression: '#owner = :owner AND #until > :now',
      ExpressionAttributeNames: { '#owner': 'owner', '#until': 'lease_until' },
      ExpressionAttributeValues: { ':owner': owner, ':zero': 0, ':now': ctx.clock.now() },
    }),
  );
}

/** The names of the leases held at `new Date(ctx.clock.now())`, sorted (a Scan: for reports and tests, not hot paths). */
export async function heldLeases(ctx: StoreContext): Promise<string[]> {
  const now = ctx.clock.now();
  const items = await scanAll(ctx, { TableName: ctx.tables.leases });
  return items
    .filter((item) => Number(item.lease_until) > now)
    .map((item) => String(item.name))
    .sort();
}
