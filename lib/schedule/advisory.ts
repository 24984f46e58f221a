/**
 * Advisory decisions: a caller that places the VM itself (Nova, whose Placement holds the claims)
 * asks Placid about the hosts it already holds. Placid decides among those candidates only, claims
 * nothing, records the decision, and answers with each candidate's verdict and weight.
 */
import type { ScheduleDecision } from '../engine/explain.js';
import { Fleet } from '../engine/fleet.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { HostState } from '../model/hostState.js';
import { serviceIsUp } from '../model/liveness.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { ScheduleDeps } from './core.js';
import { DECISION_MAX_BYTES, recordedDecisionJson, requestHash, type StageDecisionJson } from './record.js';
import type { Staleness } from './snapshot.js';

export interface CandidateRef {
  host: string;
  nodename: string;
}

/** A candidate Placid passes, with its final weight (Σ multiplier × normalised weight). */
export interface PassingVerdict extends CandidateRef {
  passes: true;
  weight: number;
  /**
   * The host's last report is older than `service_down_time` allows: Placid cannot judge it, and
   * Nova (which sent it) holds it up, so it passes with a neutral weight: the lowest weight of the
   * candidates judged (0 when none is), as an unknown host ranks.
   */
  stale?: true;
  /** With `stale`: seconds since the host was last reported (or seen) up. */
  report_age_seconds?: number;
}

/**
 * A candidate Placid eliminates. With `explain` asked, also the filter or pre-filter stage that did
 * and why (the explained decision costs several times more, so the plug-in does not ask).
 */
export interface FailingVerdict extends CandidateRef {
  passes: false;
  filter?: string;
  reason?: string;
}

export type CandidateVerdict = PassingVerdict | FailingVerdict;

/** A candidate whose host or node name Placid cannot take as a name (see identifierProblem). */
export interface RefusedCandidate extends CandidateRef {
  reason: string;
}

/** The answer to an advisory request (the body of the Function URL's and `placid serve`'s 200). */
export interface AdvisoryAnswer {
  request_id: string;
  advisory: true;
  decided_at: string;
  /** One verdict per known candidate, in the order the candidates were sent. */
  candidates: CandidateVerdict[];
  /** Candidates Placid has no host state for: it cannot judge them (the caller decides what they get). */
  unknown: CandidateRef[];
  /** Candidates whose names Placid refuses (empty, control characters, …), with the reason; not judged. */
  refused: RefusedCandidate[];
  /** Placid's own pick among the candidates (what it would place, had it placed). */
  selected: CandidateRef[];
  /** Present when no candidate could take the request. */
  error?: { type: string; message: string };
  /** Present when the request was decided as another Nova release than it named (and why). */
  nova_release_note?: string;
  /**
   * Present when the fleet this was decided on is older than the server's bound (`placid serve
   * --stale-after`): its store has not answered since. Candidates whose reports grew too old in
   * the meantime are answered as stale.
   */
  stale_snapshot?: Staleness;
}

/** What an advisory request records under its request id (claims nothing, so `placements` stays empty). */
export interface AdvisoryRecord {
  request_hash: string;
  decided_at: string;
  advisory: true;
  candidates: number;
  unknown: number;
  placements: [];
  decision: StageDecisionJson;
}

/** What an advisory request asks beyond its spec and candidates (DecisionRequest's fields). */
export interface AdviceOptions {
  /** Each eliminated candidate's filter and reason (slower). */
  explain?: boolean;
  /** Candidates refused at parse time, answered as such. */
  refused?: readonly RefusedCandidate[];
  /** The caller's Nova release (ScheduleDeps.forRelease picks its scheduler). */
  novaRelease?: string;
}

export interface AdvisoryOutcome {
  answer: AdvisoryAnswer;
  /**
   * False when the request id already had a decision (the first one recorded stays); `deferred`
   * when the write was handed to `deps.deferWrite`.
   */
  recorded: boolean | 'deferred';
}

/** Weighed hosts kept in an advisory record: the verdicts went to the caller, the record is for audit. */
export const ADVISORY_LIST_LIMIT = 20;

const key = (host: string, nodename: string): string => `${host}\u0000${nodename}`;

/**
 * Decides among `candidates` only: the hosts `source` knows are scheduled as a fleet of their own
 * (in-memory consumption for a multi-create, no claims), the others are reported as unknown.
 * Verdicts are those of the first instance, which is what a per-request filter can act on.
 * Liveness is the caller's (Nova sent the candidate, so it is up): a host whose last report is
 * too old to judge it by passes as stale, and one reported down is judged as up.
 */
export async function adviseAmong(
  source: Fleet | ((host: string, nodename: string) => HostState | undefined),
  spec: RequestSpec,
  candidates: readonly CandidateRef[],
  scheduler: Scheduler,
  now: Date,
  explain = false,
  refused: readonly RefusedCandidate[] = [],
): Promise<{ answer: AdvisoryAnswer; engine: ScheduleDecision }> {
  const downTimeSeconds = scheduler.config.DEFAULT.service_down_time;
  const judged: (HostState | StaleHost)[] = [];
  const hosts: HostState[] = [];
  const unknown: CandidateRef[] = [];
  const seen = new Set<HostState>();
  const unknownKeys = new Set<string>();
  const lookup = source instanceof Fleet ? fleetLookup(source) : source;
  for (const c of candidates) {
    const state = lookup(c.host, c.nodename);
    if (state) {
      if (seen.has(state)) continue;
      seen.add(state);
      const age = staleAgeMs(state, now, downTimeSeconds);
      if (age !== undefined) judged.push({ host: state.host, nodename: state.nodename, ageMs: age });
      else {
        const up = upAsSent(state);
        hosts.push(up);
        judged.push(up);
      }
    } else if (!unknownKeys.has(key(c.host, c.nodename))) {
      unknownKeys.add(key(c.host, c.nodename));
      unknown.push({ host: c.host, nodename: c.nodename });
    }
  }
  // A fleet's own hosts are laid out already, and hosts looked up for this request serve this one
  // decision: the candidates' fleet copies nothing, and the weighed hosts are these objects.
  const fleet = source instanceof Fleet ? source.among(hosts) : Fleet.of(hosts);
  // The weights of every survivor come from the fast path; reasons only from the explained one.
  const engine = await scheduler.schedule(fleet, spec, { explain, weights: true, now, alternates: false });
  const answer: AdvisoryAnswer = {
    request_id: spec.request_id,
    advisory: true,
    decided_at: now.toISOString(),
    candidates: verdictsOf(judged, fleet.hosts, engine, explain),
    unknown,
    refused: [...refused],
    selected: engine.placements.map((p) => ({ host: p.host.host, nodename: p.host.nodename })),
  };
  if (engine.error && hosts.length === judged.length) {
    answer.error = { type: engine.error.type, message: engine.error.message };
  }
  return { answer, engine };
}

/** A known candidate answered as stale, not judged. */
interface StaleHost extends CandidateRef {
  ageMs: number;
}

/**
 * How long the host has been silent, when ComputeFilter would call it down for that silence alone
 * (its up and forced-down flags are Nova's call here); undefined while its report is fresh enough.
 */
function staleAgeMs(host: HostState, now: Date, downTimeSeconds: number): number | undefined {
  const { last_seen_up, report_interval_seconds } = host.service;
  if (!last_seen_up) return undefined;
  const heartbeat = { up: true, forced_down: false, last_seen_up, report_interval_seconds };
  if (serviceIsUp(heartbeat, now, downTimeSeconds)) return undefined;
  return now.getTime() - Date.parse(last_seen_up);
}

/** The host as Nova sees it when it sends it: up (a report saying down or forced down is older). */
function upAsSent(host: HostState): HostState {
  const { service } = host;
  if (service.up && !service.forced_down) return host;
  return { ...host, service: { ...service, up: true, forced_down: false, last_seen_up: undefined } };
}

/**
 * Each candidate's verdict for the first instance, in the order sent: weighed → passes; stale →
 * passes with the lowest weight judged; else (explained) its first elimination.
 */
function verdictsOf(
  judged: readonly (HostState | StaleHost)[],
  interned: readonly HostState[],
  engine: ScheduleDecision,
  explain: boolean,
): CandidateVerdict[] {
  // The first instance is weighed before anything is consumed: its hosts are the very input objects.
  const weights = engine.weightsByHost?.() ?? weightsOf(engine.weighed);
  const removals = new Map<string, { filter: string; reason: string }>();
  if (explain) {
    for (const e of engine.eliminated()) {
      const k = key(e.host, e.nodename);
      if (e.instance_index === 0 && !removals.has(k)) removals.set(k, { filter: e.filter, reason: e.reason });
    }
  }
  let lowest = Number.POSITIVE_INFINITY;
  for (const w of weights.values()) lowest = Math.min(lowest, w);
  const neutral = Number.isFinite(lowest) ? lowest : 0;
  let next = 0;
  return judged.map((j): CandidateVerdict => {
    if ('ageMs' in j) {
      const age = Math.round(j.ageMs / 100) / 10;
      return {
        host: j.host,
        nodename: j.nodename,
        passes: true,
        weight: neutral,
        stale: true,
        report_age_seconds: age,
      };
    }
    // The candidates' fleet keeps the order and (laid-out) identity of its input, one host per input host.
    const h = interned[next++];
    const weight = weights.get(h);
    if (weight !== undefined) return { host: h.host, nodename: h.nodename, passes: true, weight };
    if (!explain) return { host: h.host, nodename: h.nodename, passes: false };
    // A pre-filter that rejects the request outright removes no host one by one: its message is the reason.
    const removal = removals.get(key(h.host, h.nodename)) ?? {
      filter: 'Placement',
      reason: engine.error?.message ?? 'not selected',
    };
    return { host: h.host, nodename: h.nodename, passes: false, ...removal };
  });
}

function weightsOf(weighed: ScheduleDecision['weighed']): Map<HostState, number> {
  const weights = new Map<HostState, number>();
  for (const w of weighed ?? []) weights.set(w.host, w.weight);
  return weights;
}

/** Nodes per host above which a keyed index beats scanning the host's nodes (ironic hosts have thousands). */
const SCAN_LIMIT = 8;

/**
 * A lookup over `fleet` for adviseAmong. Through the fleet's own by-name map: the candidate's host
 * string is used as it came (no `host\0nodename` key built and hashed per candidate, which was a
 * tenth of an advisory request's CPU), and only a host with many nodes goes through a keyed index.
 */
export function fleetLookup(fleet: Fleet): (host: string, nodename: string) => HostState | undefined {
  return (host, nodename) => {
    const nodes = fleet.byName.get(host);
    if (nodes === undefined) return undefined;
    if (nodes.length <= SCAN_LIMIT) {
      for (const h of nodes) if (h.nodename === nodename) return h;
      return undefined;
    }
    return fleet.byNodeKey.get(key(host, nodename));
  };
}

/**
 * The advisory record's fingerprint. Advisory requests never read it back (nothing was claimed);
 * it only has to differ from any placed request's, so a placed request never replays it.
 */
function advisoryHash(spec: RequestSpec): string {
  return requestHash({ ...spec, request_id: `advisory\u0000${spec.request_id}` });
}

/**
 * Advises on one request over the stored fleet: refreshes the snapshot, decides among the
 * candidates and records the decision once per request id. Nothing is claimed, so a repeated
 * request is simply decided again (Nova retries a live migration with fewer hosts under one id).
 *
 * @example
 * const { answer } = await adviseRequest(spec, [{ host: 'cmp1', nodename: 'cmp1' }], deps);
 */
export async function adviseRequest(
  spec: RequestSpec,
  candidates: readonly CandidateRef[],
  deps: ScheduleDeps,
  options: AdviceOptions = {},
): Promise<AdvisoryOutcome> {
  await deps.snapshot.refresh();
  const now = deps.store.now();
  const { scheduler, note } = deps.forRelease?.(options.novaRelease) ?? { scheduler: deps.scheduler };
  const { answer, engine } = await adviseAmong(
    deps.snapshot.fleet,
    spec,
    candidates,
    scheduler,
    now,
    options.explain,
    options.refused,
  );
  if (note) answer.nova_release_note = note;
  const stale = deps.snapshot.staleness();
  if (stale) answer.stale_snapshot = stale;
  if (deps.readOnly) return { answer, recorded: false };
  const record: AdvisoryRecord = {
    request_hash: advisoryHash(spec),
    decided_at: answer.decided_at,
    advisory: true,
    candidates: candidates.length,
    unknown: answer.unknown.length,
    placements: [],
    decision: recordedDecisionJson(
      engine,
      spec.num_instances,
      deps.maxDecisionBytes ?? DECISION_MAX_BYTES,
      ADVISORY_LIST_LIMIT,
    ),
  };
  const write = () => deps.store.putDecision(spec.request_id, record);
  if (deps.deferWrite) {
    deps.deferWrite(write);
    return { answer, recorded: 'deferred' };
  }
  return { answer, recorded: await write() };
}
