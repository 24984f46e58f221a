/** Why an operator's approval was refused; each names the plan (exit status 2 in the CLI). */
import { PlacidError } from '../model/errors.js';
import { identifierProblem } from '../model/identifierRules.js';

export class PlanApprovalError extends PlacidError {
  constructor(
    readonly planId: string,
    message: string,
  ) {
    super(message);
  }
}

export class UnknownPlanError extends PlanApprovalError {
  constructor(planId: string) {
    super(planId, `no plan ${planId}: \`placid plans\` lists the stored plans`);
  }
}

export class ExpiredPlanApprovalError extends PlanApprovalError {
  constructor(planId: string, expiredAt: string) {
    super(planId, `plan ${planId} expired at ${expiredAt}; the detector makes a new one from fresh samples`);
  }
}

export class PlanNotPendingError extends PlanApprovalError {
  constructor(
    planId: string,
    readonly status: string,
  ) {
    super(
      planId,
      `plan ${planId} is ${status}, not pending_approval: only plans made in approve mode wait for approval`,
    );
  }
}

/** Longest plan id accepted; Placid's own are `plan-` and 20 hex digits. */
export const MAX_PLAN_ID_CHARS = 128;

/** A plan id that cannot name any plan: empty, too long, or holding control characters. */
export class InvalidPlanIdError extends PlanApprovalError {
  constructor(planId: string, problem: string) {
    super(planId, `plan id ${problem}; plan ids look like plan-3f2a…, as \`placid plans\` lists them`);
  }
}

/** Refuses a plan id no plan can have, before it reaches the store (whose key limits would answer 500). */
export function checkPlanId(planId: string): void {
  const problem = identifierProblem(planId, { max: MAX_PLAN_ID_CHARS });
  if (problem) throw new InvalidPlanIdError(planId, problem);
}
