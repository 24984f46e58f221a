/**
 * Plans in the `plans` table: one item per plan, its status in the `byStatus` index (sort key
 * created_at). The plan body is kept as JSON, gzipped when large, and cut (skipped VMs only) when
 * even that would not fit DynamoDB's 400 KB item limit. (The detector's state item shares the
 * table: detectorState.ts.)
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Plan, StoredPlan, StoredPlanStatus } from '../model/plan.js';
import { sendIfCondition } from './conditionalWrite.js';
import { epochSeconds, type StoreContext } from './context.js';
import { queryAll } from './paginate.js';
import { putIfAbsent } from './putIfAbsent.js';
import { PLANS_BY_STATUS } from './tables.js';
import { setExpression } from './updateExpression.js';

/** Plans (and their records) stay readable this long after they expire. */
export const PLAN_RETENTION_DAYS = 30;
const INLINE_BODY_BYTES = 64 * 1024;
const MAX_BODY_BYTES = 300 * 1024;

type Item = Record<string, unknown>;

/** What the byStatus index holds of a plan: enough to track it without reading its body. */
export interface PlanHeader {
  plan_id: string;
  status: StoredPlanStatus;
  created_at: string;
  plan_expires_at: string;
  /** Its summary's `moved`: how many migrations it plans. */
  moved: number;
}

export class PlanRepository {
  constructor(private readonly ctx: StoreContext) {}

  /** Stores a new plan; false when a plan with that id is already stored (plan ids are deterministic). */
  put(plan: Plan): Promise<boolean> {
    const item: Item = {
      plan_id: plan.plan_id,
      status: plan.status,
      mode: plan.mode,
      created_at: plan.created_at,
      plan_expires_at: plan.expires_at,
      expires_at: epochSeconds(Date.parse(plan.expires_at)) + PLAN_RETENTION_DAYS * 86_400,
      summary: plan.summary,
      waves: plan.waves,
      ...planBody(plan),
    };
    return putIfAbsent(this.ctx, this.ctx.tables.plans, item, 'plan_id');
  }

  async get(planId: string): Promise<StoredPlan | undefined> {
    const { Item } = await this.ctx.doc.send(
      new GetCommand({ TableName: this.ctx.tables.plans, Key: { plan_id: planId }, ConsistentRead: true }),
    );
    return Item && isPlanItem(Item) ? planFromItem(Item) : undefined;
  }

  /** A plan's current status (one strongly consistent read of that attribute only), undefined when gone. */
  async status(planId: string): Promise<StoredPlanStatus | undefined> {
    const { Item } = await this.ctx.doc.send(
      new GetCommand({
        TableName: this.ctx.tables.plans,
        Key: { plan_id: planId },
        ProjectionExpression: '#st',
        ExpressionAttributeNames: { '#st': 'status' },
        ConsistentRead: true,
      }),
    );
    return typeof Item?.status === 'string' ? (Item.status as StoredPlanStatus) : undefined;
  }

  /** Plans with `status`, oldest first. The index is eventually consistent: callers re-read by id before acting. */
  async withStatus(status: StoredPlanStatus): Promise<StoredPlan[]> {
    const items = await queryAll(this.ctx, this.byStatus(status));
    return items.map((item) => planFromItem(item));
  }

  /**
   * The headers of the plans with `status`, oldest first, without their bodies (the byStatus index:
   * eventually consistent, so a plan stored a moment ago may be missing).
   */
  async headersWithStatus(status: StoredPlanStatus): Promise<PlanHeader[]> {
    const query = this.byStatus(status);
    const items = await queryAll(this.ctx, {
      ...query,
      ProjectionExpression: '#id, #created, #expires, #summary.#moved',
      ExpressionAttributeNames: {
        ...query.ExpressionAttributeNames,
        '#id': 'plan_id',
        '#created': 'created_at',
        '#expires': 'plan_expires_at',
        '#summary': 'summary',
        '#moved': 'moved',
      },
    });
    return items.map((item) => ({
      plan_id: String(item.plan_id),
      status,
      created_at: String(item.created_at),
      plan_expires_at: String(item.plan_expires_at),
      moved: Number((item.summary as { moved?: unknown } | undefined)?.moved ?? 0),
    }));
  }

  /**
   * Moves a plan from one of `from` to `to` (plus `extra` attributes) with one conditional write;
   * false when its status was no longer one of `from` (another run got there first).
   */
  async setStatus(
    planId: string,
    from: readonly StoredPlanStatus[],
    to: StoredPlanStatus,
    extra: Record<string, string> = {},
  ): Promise<boolean> {
    const update = setExpression({ status: to, ...extra });
    const allowed = Object.fromEntries(from.map((s, i) => [`:from${i}`, s]));
    return sendIfCondition(
      this.ctx,
      new UpdateCommand({
        TableName: this.ctx.tables.plans,
        Key: { plan_id: planId },
        ...update,
        ConditionExpression: `attribute_exists(#id) AND #st IN (${Object.keys(allowed).join(', ')})`,
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#id': 'plan_id', '#st': 'status' },
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...allowed },
      }),
    );
  }

  private byStatus(status: StoredPlanStatus) {
    return {
      TableName: this.ctx.tables.plans,
      IndexName: PLANS_BY_STATUS,
      KeyConditionExpression: '#status = :status',
      ExpressionAttributeNames: { '#status': 'status' } as Record<string, string>,
      ExpressionAttributeValues: { ':status': status },
    };
  }
}

function planBody(plan: Plan): Item {
  const json = JSON.stringify(plan);
  if (Buffer.byteLength(json) <= INLINE_BODY_BYTES) return { body: json };
  const zipped = gzipSync(json);
  if (zipped.length <= MAX_BODY_BYTES) return { body_gz: zipped };
  // Only the skipped list can grow with the fleet this much; the migrations are bounded by the waves.
  const kept = Math.max(0, Math.floor(plan.skipped.length * (MAX_BODY_BYTES / zipped.length) * 0.9));
  const cut = { ...plan, skipped: plan.skipped.slice(0, kept) };
  return { body_gz: gzipSync(JSON.stringify(cut)), skipped_cut: plan.skipped.length - kept };
}

function isPlanItem(item: Item): boolean {
  return typeof item.status === 'string' && (item.body !== undefined || item.body_gz !== undefined);
}

function planFromItem(item: Item): StoredPlan {
  const json = item.body_gz ? gunzipSync(item.body_gz as Uint8Array).toString('utf8') : String(item.body);
  const optional = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : undefined);
  return {
    plan_id: String(item.plan_id),
    status: item.status as StoredPlanStatus,
    mode: item.mode as StoredPlan['mode'],
    created_at: String(item.created_at),
    plan_expires_at: String(item.plan_expires_at),
    approved_at: optional('approved_at'),
    completed_at: optional('completed_at'),
    expired_at: optional('expired_at'),
    summary: item.summary as StoredPlan['summary'],
    waves: item.waves as StoredPlan['waves'],
    plan: JSON.parse(json) as Plan,
  };
}
