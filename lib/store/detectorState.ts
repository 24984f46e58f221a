/**
 * What one detector run leaves for the next, in one item of the plans table (it has no `status`,
 * so the byStatus index never lists it): the VMs suffering after the last detection (exit
 * hysteresis), the newest report it saw (no new report: nothing to detect), the last
 * recommendation (an unchanged recommendation is not stored again), until when the fleet settles
 * after a plan's moves, and the plans that may still change. With these a run decides from this
 * one item (and the ingest watermark) that it has nothing to do.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Plan } from '../model/plan.js';
import { sendIfCondition } from './conditionalWrite.js';
import type { StoreContext } from './context.js';

export const DETECTOR_STATE_ID = '#detector-state';

/** A plan that may still change (approved, pending approval, or a recommendation not yet expired). */
export interface TrackedPlan {
  status: Plan['status'];
  created_at: string;
  plan_expires_at: string;
  /** Migrations planned: a plan completes only once this many records exist and all have ended. */
  moved: number;
}

export interface DetectorState {
  /** UUIDs suffering after the last detection. */
  suffering: string[];
  /** The newest report (the ingest watermark) the last detection read (ISO-8601). */
  newest_report_at: string | null;
  detected_at: string | null;
  /** The last recommended plan and what it decided, so an unchanged recommendation is not repeated. */
  recommended: { plan_id: string; fingerprint: string; plan_expires_at: string } | null;
  /**
   * No planning before this (ISO-8601): sustain_minutes after a plan that moved VMs ended. Until
   * then the window still holds samples from before the moves, and the hosts they relieved would
   * look contended (and their capacity mis-calibrated) by demand that has already left.
   */
  settle_until: string | null;
  /**
   * The live plans by id, kept as they are made, approved, completed and expired. null in an item
   * written before this was kept: the next run rebuilds it from the byStatus index.
   */
  live_plans: Record<string, TrackedPlan> | null;
  /** Bumped by every write; a write based on an older read fails. */
  version: number;
}

const EMPTY_STATE: DetectorState = {
  suffering: [],
  newest_report_at: null,
  detected_at: null,
  recommended: null,
  settle_until: null,
  live_plans: {},
  version: 0,
};

/** The detector's one state item, read consistently and written only over the version it read. */
export class DetectorStateRepository {
  constructor(private readonly ctx: StoreContext) {}

  async read(): Promise<DetectorState> {
    const { Item } = await this.ctx.doc.send(
      new GetCommand({
        TableName: this.ctx.tables.plans,
        Key: { plan_id: DETECTOR_STATE_ID },
        ConsistentRead: true,
      }),
    );
    if (!Item) return { ...EMPTY_STATE, live_plans: {} };
    return {
      suffering: (Item.suffering as string[] | undefined) ?? [],
      newest_report_at: (Item.newest_report_at as string | undefined) ?? null,
      detected_at: (Item.detected_at as string | undefined) ?? null,
      recommended: (Item.recommended as DetectorState['recommended'] | undefined) ?? null,
      settle_until: (Item.settle_until as string | undefined) ?? null,
      live_plans: (Item.live_plans as DetectorState['live_plans'] | undefined) ?? null,
      version: Number(Item.version ?? 0),
    };
  }

  /** Writes the next state; false when another run wrote since `previous` was read (its state wins). */
  async write(previous: DetectorState, next: Omit<DetectorState, 'version'>): Promise<boolean> {
    return sendIfCondition(
      this.ctx,
      new PutCommand({
        TableName: this.ctx.tables.plans,
        Item: { plan_id: DETECTOR_STATE_ID, ...next, version: previous.version + 1 },
        ConditionExpression: 'attribute_not_exists(#id) OR #version = :version',
        ExpressionAttributeNames: { '#id': 'plan_id', '#version': 'version' },
        ExpressionAttributeValues: { ':version': previous.version },
      }),
    );
  }
}
