/**
 * The final word on every considered VM that does not move. A suffering VM whose predicted steal
 * after the whole plan is below the exit threshold recovers without moving (enough demand left its
 * host); one that still suffers keeps the reason its own move was not planned. Considered VMs that
 * were not suffering (noisy neighbours the engine could not place) keep theirs.
 */

import type { PlannedMigration, SkippedVm } from '../model/plan.js';
import { gibibytes, pct } from './format.js';
import type { Outcome } from './outcome.js';
import type { PlanRun } from './planRun.js';

export function finalSkips(p: PlanRun, outcome: Outcome): SkippedVm[] {
  const leaving = new Map<string, PlannedMigration[]>();
  for (const m of p.migrations) {
    const list = leaving.get(m.source_host);
    if (list) list.push(m);
    else leaving.set(m.source_host, [m]);
  }
  const exit = p.settings.steal_exit_threshold_percent;
  const out: SkippedVm[] = [];
  for (const vm of p.detection.vms) {
    if (p.hasMoved(vm.uuid)) continue;
    const own = p.skips.get(vm.uuid);
    if (vm.status !== 'suffering') {
      if (own) out.push({ instance_uuid: vm.uuid, host: vm.host, ...own });
      continue;
    }
    const after = outcome.stealAfter.get(vm.uuid) ?? vm.steal?.mean ?? 0;
    if (after < exit) {
      const moves = leaving.get(vm.host) ?? [];
      const bytes = moves.reduce((n, m) => n + m.estimated_bytes, 0);
      const once =
        moves.length > 0 ? `, once ${moves.length} VM(s) (${gibibytes(bytes)}) leave ${vm.host}` : '';
      const note = own ? ` (its own move was not planned: ${own.reason})` : '';
      out.push({
        instance_uuid: vm.uuid,
        host: vm.host,
        code: 'recovers_without_moving',
        reason: `recovers without moving: predicted steal ${pct(after)} after the plan, below the exit threshold ${exit}%${once}${note}`,
      });
      continue;
    }
    const still = `; still suffering after the plan (predicted steal ${pct(after)})`;
    out.push(
      own
        ? { instance_uuid: vm.uuid, host: vm.host, ...own, reason: own.reason + still }
        : {
            instance_uuid: vm.uuid,
            host: vm.host,
            code: 'no_destination',
            reason: `not moved: relieving its host looked enough when it was planned${still}`,
          },
    );
  }
  return out;
}
