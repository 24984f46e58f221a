/** A planned migration as the plan shows it, with the sentence that explains it. */

import type { PlannedMigration } from '../model/plan.js';
import type { Candidate } from './candidates.js';
import { clock, pct, round1 } from './format.js';

export interface MovePurpose {
  kind: 'victim' | 'noisy_neighbour';
  /** Why this VM is the one to move, e.g. "suffering on contended cmp1; …". */
  why: string;
  /** For a move of a relief set: the drop (points) of its host's steal the whole set brings. */
  setBenefit?: number;
}

/** Predicted host steal (percent) around the move. */
export interface HostGain {
  sourceBefore: number;
  sourceAfter: number;
  destBefore: number;
  destAfter: number;
  /** The moved VM's guest steal at the destination. */
  vmAfter: number;
}

export interface MoveFacts {
  c: Candidate;
  purpose: MovePurpose;
  source: string;
  dest: string;
  wave: number;
  startsAt: Date;
  gain: HostGain;
}

export function describeMove(m: MoveFacts): PlannedMigration {
  const { c, gain, source, dest } = m;
  const hosts = `${source} ${pct(gain.sourceBefore)} → ${pct(gain.sourceAfter)}, ${dest} ${pct(gain.destBefore)} → ${pct(gain.destAfter)}`;
  const effect =
    m.purpose.kind === 'victim'
      ? `its steal ${pct(c.stealPercent)} → ${pct(gain.vmAfter)} (host steal ${hosts})`
      : `host steal ${hosts}`;
  const startsAt = m.startsAt.toISOString();
  return {
    instance_uuid: c.vm.uuid,
    source_host: source,
    dest_host: dest,
    wave: m.wave,
    starts_at: startsAt,
    reason: `${m.purpose.why}; ${effect}; ${c.cost.reason}; wave ${m.wave} at ${clock(startsAt)}`,
    estimated_bytes: c.cost.bytes,
    estimated_seconds: Math.round(c.cost.seconds * 10) / 10,
    expected_gain: {
      steal_before: round1(c.stealPercent),
      steal_after: round1(gain.vmAfter),
      source_steal_before: round1(gain.sourceBefore),
      source_steal_after: round1(gain.sourceAfter),
      dest_steal_before: round1(gain.destBefore),
      dest_steal_after: round1(gain.vmAfter),
    },
    kind: m.purpose.kind,
    availability_zone: c.vm.availability_zone,
    block_migration: c.cost.diskBytes > 0,
    needs_approval: c.cost.block === 'needs_approval',
  };
}
