/** A plan for people: what it is, the migrations wave by wave with their reasons, then the skipped VMs by reason. */

import type { Plan, PlannedMigration, SkipCode, SkippedVm } from '../model/plan.js';
import { clock, gibibytes, pct, seconds } from '../rebalance/format.js';
import { SKIP_TITLES } from '../rebalance/skipTitles.js';
import { columns, plural } from './format.js';

const MODE: Record<Plan['mode'], string> = {
  recommend: 'recommend mode: a dry run, nothing is executed',
  approve: 'approve mode: waits for `placid approve PLAN_ID`',
  auto: 'auto mode: approved as made',
};

/** `names` (uuid → instance name, from the store) adds each moved VM's name beside its uuid. */
export function formatPlan(plan: Plan, names: ReadonlyMap<string, string> = new Map()): string {
  const s = plan.summary;
  const head = [
    `Plan ${plan.plan_id} (${MODE[plan.mode]})`,
    `created ${plan.created_at}, expires ${plan.expires_at}`,
    `${plural(s.suffering_vms, 'suffering VM')}, ${plural(s.contended_hosts, 'contended host')}: ` +
      `${plural(s.moved, 'migration')} in ${plural(s.waves, 'wave')}, ${gibibytes(s.bytes)} ` +
      `(${lowerBound(s)}); predicted to suffer after the plan: ${s.suffering_left_predicted}` +
      (s.newly_suffering_predicted > 0 ? `, newly suffering: ${s.newly_suffering_predicted}` : ''),
  ];
  const sections = [head, ...waves(plan, names), ...skipped(plan.skipped)];
  if (plan.migrations.length === 0) sections.splice(1, 0, ['Nothing to move.']);
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

/** The bound and what it covers: the hosts the plan relieves fully, where it moves at least that. */
function lowerBound(s: Plan['summary']): string {
  const c = s.lower_bound_covers;
  if (c.hosts.length === 0) return 'no host relieved fully, so no lower bound';
  return (
    `${gibibytes(c.plan_bytes)} of it from the ${plural(c.hosts.length, 'host')} it relieves fully, ` +
    `lower bound ${gibibytes(s.lower_bound_bytes)} for their ${plural(c.suffering_vms, 'suffering VM')}`
  );
}

function waves(plan: Plan, names: ReadonlyMap<string, string>): string[][] {
  return plan.waves.map((w) => {
    const moves = plan.migrations.filter((m) => m.wave === w.wave);
    const rows = moves.map((m) => [
      `  ${m.instance_uuid}${names.has(m.instance_uuid) ? ` (${names.get(m.instance_uuid)})` : ''}`,
      `${m.source_host} → ${m.dest_host}`,
      gibibytes(m.estimated_bytes),
      seconds(m.estimated_seconds),
      `steal ${pct(m.expected_gain.steal_before)} → ${pct(m.expected_gain.steal_after)}`,
      flags(m),
    ]);
    const table = columns(rows, [2, 3]);
    const lines = moves.flatMap((m, i) => [table[i], `      ${m.reason}`]);
    return [`Wave ${w.wave}: starts ${clock(w.starts_at)}, ends about ${clock(w.ends_at)}`, ...lines];
  });
}

function flags(m: PlannedMigration): string {
  const out = [
    m.kind === 'noisy_neighbour' ? 'noisy neighbour' : '',
    m.needs_approval ? 'NEEDS APPROVAL' : '',
  ];
  return out.filter(Boolean).join(', ');
}

function skipped(items: readonly SkippedVm[]): string[][] {
  if (items.length === 0) return [];
  const groups = new Map<SkipCode, SkippedVm[]>();
  for (const s of items) {
    const list = groups.get(s.code);
    if (list) list.push(s);
    else groups.set(s.code, [s]);
  }
  const sections = [...groups].map(([code, list]) => [
    `  ${SKIP_TITLES[code]} (${list.length})`,
    ...list.map((s) => `    ${s.instance_uuid} on ${s.host}: ${s.reason}`),
  ]);
  return [[`Not moved (${items.length}):`, ...sections.flat()]];
}
