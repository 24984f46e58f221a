/**
 * Resource claims: one conditional UpdateItem that adds the request to the host's usage counters
 * only if every limited resource stays within its limit. DynamoDB evaluates the condition and the
 * update atomically per item, so concurrent schedulers can never overcommit a host.
 */

import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SchedulerConfig } from '../config/options.js';
import { allocationRatio } from '../engine/ratios.js';
import { ValidationError } from '../model/errors.js';
import type { HostState } from '../model/hostState.js';
import { sendIfCondition } from './conditionalWrite.js';
import type { StoreContext } from './context.js';
import type { Claim } from './hostItems.js';

export interface ClaimRequest {
  vcpus: number;
  memory_mb: number;
  /** Root plus ephemeral disk, as Nova consumes it. */
  disk_gb: number;
  /** The instance uuid; makes a retried claim idempotent and lets the next host report retire it. */
  claim_id?: string;
}

/**
 * Absolute caps on the host's stored usage counters. A resource without a limit is not checked,
 * like a Nova claim for which no filter set a limit.
 */
export interface ClaimLimits {
  vcpus?: number;
  memory_mb?: number;
  disk_gb?: number;
}

/**
 * Placement's capacity for a host, `(total - reserved) × allocation ratio` per class, as caps on the
 * stored counters. Nova's reported RAM and disk usage already include the host's reservation
 * (free_ram_mb = total - reserved - instances), so those caps add it back; vCPU usage does not.
 * This is the same rule as the engine's pre-filter, so a claim never admits what Placement refuses.
 */
export function claimLimits(host: HostState, config: SchedulerConfig): Required<ClaimLimits> {
  const d = config.DEFAULT;
  const reservedDiskGb = d.reserved_host_disk_mb / 1024;
  return {
    vcpus: (host.vcpus_total - d.reserved_host_cpus) * allocationRatio(host, 'cpu', config),
    memory_mb:
      (host.total_usable_ram_mb - d.reserved_host_memory_mb) * allocationRatio(host, 'ram', config) +
      d.reserved_host_memory_mb,
    disk_gb:
      (host.total_usable_disk_gb - Math.ceil(reservedDiskGb)) * allocationRatio(host, 'disk', config) +
      reservedDiskGb,
  };
}

/**
 * Consumes the request on host/nodename if it fits under `limits`. Returns false when the host is
 * unknown or has no room left; true when claimed now, or earlier under the same `claim_id`.
 */
export async function claimResources(
  ctx: StoreContext,
  host: string,
  nodename: string,
  request: ClaimRequest,
  limits: ClaimLimits,
): Promise<boolean> {
  checkRequest(request);
  const id = request.claim_id ?? randomUUID();
  const claim: Claim = {
    vcpus: request.vcpus,
    memory_mb: request.memory_mb,
    disk_mb: request.disk_gb * 1024,
    claimed_at: ctx.clock.now(),
  };
  const names: Record<string, string> = {
    '#host': 'host',
    '#claims': 'claims',
    '#id': id,
    '#updated_at': 'updated_at',
    '#used_vcpus': 'used_vcpus',
    '#used_memory_mb': 'used_memory_mb',
    '#used_disk_mb': 'used_disk_mb',
    '#version': 'version',
  };
  const values: Record<string, unknown> = {
    ':claim': claim,
    ':now': claim.claimed_at,
    ':vcpus': claim.vcpus,
    ':memory_mb': claim.memory_mb,
    ':disk_mb': claim.disk_mb,
    ':one': 1,
  };
  const conditions = ['attribute_exists(#host)', 'attribute_not_exists(#claims.#id)'];
  // used + requested <= limit, written as used <= limit - requested (conditions cannot add).
  const caps: [keyof ClaimLimits, string, number][] = [
    ['vcpus', '#used_vcpus', claim.vcpus],
    ['memory_mb', '#used_memory_mb', claim.memory_mb],
    ['disk_gb', '#used_disk_mb', claim.disk_mb],
  ];
  for (const [limit, attribute, requested] of caps) {
    const cap = limits[limit];
    if (cap === undefined) continue;
    const capInUnits = limit === 'disk_gb' ? cap * 1024 : cap;
    values[`:max_${limit}`] = capInUnits - requested;
    conditions.push(`${attribute} <= :max_${limit}`);
  }
  const claimed = await sendIfCondition(
    ctx,
    new UpdateCommand({
      TableName: ctx.tables.hosts,
      Key: { host, nodename },
      UpdateExpression:
        'SET #claims.#id = :claim, #updated_at = :now ' +
        'ADD #used_vcpus :vcpus, #used_memory_mb :memory_mb, #used_disk_mb :disk_mb, #version :one',
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
  if (claimed) return true;
  return request.claim_id !== undefined && (await claimExists(ctx, host, nodename, id));
}

async function claimExists(ctx: StoreContext, host: string, nodename: string, id: string): Promise<boolean> {
  const { Item } = await ctx.doc.send(
    new GetCommand({ TableName: ctx.tables.hosts, Key: { host, nodename }, ConsistentRead: true }),
  );
  return Item?.claims?.[id] !== undefined;
}

function checkRequest(request: ClaimRequest): void {
  const issues: { path: string; message: string }[] = (['vcpus', 'memory_mb', 'disk_gb'] as const)
    .filter((k) => !(Number.isFinite(request[k]) && request[k] >= 0))
    .map((k) => ({ path: k, message: `must be a finite number >= 0, got ${request[k]}` }));
  if (request.claim_id === '') issues.push({ path: 'claim_id', message: 'must not be empty' });
  if (issues.length > 0) throw new ValidationError('claim', issues);
}
