import type { HostState } from '../model/hostState.js';
import type { ScheduleDecision } from './explain.js';

interface HostRef {
  host: string;
  nodename: string;
}

/** The machine-readable decision printed by `placid schedule --json`. */
export interface DecisionJson {
  selected: HostRef[];
  alternates: (HostRef & { instance_index?: number })[];
  weighed: (HostRef & { weight: number })[];
  eliminated: (HostRef & { filter: string; reason: string; instance_index?: number })[];
  error?: { type: string; message: string };
}

const ref = (h: HostState): HostRef => ({ host: h.host, nodename: h.nodename });

/**
 * The decision as JSON. `instance_index` appears on alternates and eliminations only for a
 * multi-instance request, so single-instance output has exactly the documented keys.
 */
export function decisionJson(decision: ScheduleDecision, numInstances: number): DecisionJson {
  const multi = numInstances > 1;
  const out: DecisionJson = {
    selected: decision.placements.map((p) => ref(p.host)),
    alternates: decision.placements.flatMap((p, i) =>
      p.alternates.map((h) => (multi ? { ...ref(h), instance_index: i } : ref(h))),
    ),
    // Rows written out, not spread: at 100k hosts an explained decision is mostly these rows.
    weighed: ((decision.rankedWeights ? decision.rankedWeights() : decision.weighed) ?? []).map((w) => ({
      host: w.host.host,
      nodename: w.host.nodename,
      weight: w.weight,
    })),
    // An elimination is a fresh row with these keys and instance_index (shown for a multi-create).
    eliminated: decision
      .eliminated()
      .map((e) => (multi ? e : { host: e.host, nodename: e.nodename, filter: e.filter, reason: e.reason })),
  };
  if (decision.error) out.error = { type: decision.error.type, message: decision.error.message };
  return out;
}
