/** Why an operator's approval was refused; each names the plan (exit status 2 in the CLI). */
import { PlacidError } from '../model/errors.js';

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

export class PlanExpiredError extends PlanApprovalError {
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
