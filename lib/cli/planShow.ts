/**
 * `placid plans show PLAN_ID`: one stored plan in full before approving it: every move (the VM's
 * uuid and name, source, destination, wave and start, GB to copy, the reason and the predicted
 * steal that is its evidence; planText.ts, as `placid plan --fleet` prints it), the summary, the
 * state of its migrations, and what approving it will do next.
 */
import type { StoredPlan } from '../model/plan.js';
import type { FleetStore } from '../store/fleetStore.js';
import { plural, terminalSafe } from './format.js';
import type { CliIO } from './io.js';
import { withLocalStore } from './localDetector.js';
import { formatPlan } from './planText.js';

/** What every move was checked against before it entered the plan (lib/rebalance/destination.ts). */
const CONSTRAINTS_CHECKED =
  "each destination passed the scheduler's filters for the VM (capacity, zone, server groups, " +
  'SameAvailabilityZoneFilter, HostStealFilter, RoleSpreadFilter), within the budget, cooldown and ' +
  'blackout settings; the workflow checks the destination again just before each move';

export interface PlanShow {
  plan: StoredPlan;
  instance_names: Record<string, string>;
  /** How many of its migrations are in each state (none before it is approved). */
  migrations: Record<string, number>;
  constraints_checked: string;
  next: string;
}

export async function runPlanShow(
  planId: string,
  args: { dataDir?: string; json?: boolean },
  io: CliIO,
): Promise<number> {
  const { UnknownPlanError } = await import('../detector/index.js');
  const shown = await withLocalStore(args.dataDir, async (store) => {
    const plan = await store.plans.get(planId);
    if (!plan) throw new UnknownPlanError(planId);
    return showPlan(store, plan);
  });
  io.stdout.write(args.json ? `${JSON.stringify(shown, null, 2)}\n` : terminalSafe(formatShow(shown)));
  return 0;
}

async function showPlan(store: FleetStore, plan: StoredPlan): Promise<PlanShow> {
  const names: Record<string, string> = {};
  for (const m of plan.plan.migrations) {
    const instance = await store.getInstance(m.instance_uuid);
    const name = (instance as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string') names[m.instance_uuid] = name;
  }
  const migrations: Record<string, number> = {};
  for (const r of await store.migrations.ofPlan(plan.plan_id))
    migrations[r.status] = (migrations[r.status] ?? 0) + 1;
  return {
    plan,
    instance_names: names,
    migrations,
    constraints_checked: CONSTRAINTS_CHECKED,
    next: nextStep(plan),
  };
}

function nextStep(plan: StoredPlan): string {
  const first = plan.waves[0];
  const wave1 = first ? `wave 1 (${plural(first.migrations, 'migration')})` : 'nothing (no migrations)';
  switch (plan.status) {
    case 'pending_approval':
      return (
        `approving it (\`placid approve ${plan.plan_id}\`, or POST /plans/${plan.plan_id}/approve to \`placid serve\`) ` +
        `before ${plan.plan_expires_at} marks it approved; the next detector run (\`placid detect\`, or ` +
        `\`placid serve\`'s detector) sends ${wave1}, then each later wave once the one before has ended`
      );
    case 'approved':
      return 'approved: the detector sends its waves in turn; `placid plans` shows how its migrations stand';
    case 'recommended':
      return 'nothing: a recommend-mode plan is a dry run and cannot be approved';
    default:
      return `nothing: the plan is ${plan.status}`;
  }
}

function formatShow(shown: PlanShow): string {
  const { plan } = shown;
  const states = Object.entries(shown.migrations).map(([s, n]) => `${n} ${s}`);
  const lines = [
    `Status: ${plan.status}${plan.approved_at ? ` (approved ${plan.approved_at})` : ''}; migrations: ${states.join(', ') || 'none sent yet'}`,
    `Constraints checked: ${shown.constraints_checked}`,
    `Next: ${shown.next}`,
  ];
  return `${formatPlan(plan.plan, new Map(Object.entries(shown.instance_names)))}\n${lines.join('\n')}\n`;
}
