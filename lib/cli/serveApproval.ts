/**
 * `placid serve`'s approval route: `POST /plans/PLAN_ID/approve` approves a plan made in approve
 * mode, as `placid approve PLAN_ID` does, without stopping the server; its detector sends wave 1 on
 * its next run. Every other path goes to the schedule stage's handler unchanged.
 */
import type { LambdaFunctionURLResult } from 'aws-lambda';
import { approvePlan, PlanApprovalError, UnknownPlanError } from '../detector/index.js';
import type { UrlHandler } from '../local/functionUrlServer.js';
import type { FleetStore } from '../store/fleetStore.js';

const APPROVE_PATH = /^\/plans\/([^/]+)\/approve\/?$/;

export function withApprovalRoute(handler: UrlHandler, store: Pick<FleetStore, 'plans'>): UrlHandler {
  return async (event, context) => {
    const match = APPROVE_PATH.exec(event.rawPath);
    if (!match) return handler(event, context);
    if (event.requestContext.http.method !== 'POST')
      return json(405, { error: 'POST to approve' }, { allow: 'POST' });
    try {
      const plan = await approvePlan(store, decodeURIComponent(match[1]), new Date());
      const { moved, waves } = plan.summary;
      return json(200, {
        plan_id: plan.plan_id,
        status: plan.status,
        approved_at: plan.approved_at,
        plan_expires_at: plan.plan_expires_at,
        moved,
        waves,
        next: "the server's next detector run sends wave 1",
      });
    } catch (error) {
      if (!(error instanceof PlanApprovalError)) throw error;
      return json(error instanceof UnknownPlanError ? 404 : 409, {
        error: error.message,
        plan_id: error.planId,
      });
    }
  };
}

function json(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): LambdaFunctionURLResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}
