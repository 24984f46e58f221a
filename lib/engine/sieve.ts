import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { Candidates } from './candidates.js';
import type { EngineContext } from './context.js';
import { PASS, PASS_ALL } from './filter.js';
import { type FilterCount, prepareStages, type Stage, wrap } from './filterHandler.js';
import type { HostGrouping, HostGroups } from './hostGroups.js';

/**
 * Nova's `get_filtered_objects` over candidate positions: each enabled filter in order over the
 * survivors of the one before, skipping once-per-request filters after the first instance and
 * non-rebuild filters on a rebuild, stopping at the first filter that leaves no host. A filter
 * that declares `groupedBy` is asked once per distinct host value (a typed-array read per host, no
 * host object read); consecutive other filters run host by host together (every filter on one
 * host, then the next host: each host object is read from memory once). Compacts `candidates` in
 * place and returns the counts and the prepared stages.
 *
 * `removedBy`, when given (at least the hosts' length), records the run for an explanation: the
 * position of each host a filter removes gets that filter's stage position + 1.
 */
export async function sieveFilters(
  filters: Parameters<typeof prepareStages>[0],
  candidates: Candidates,
  spec: RequestSpec,
  ctx: EngineContext,
  removedBy: Uint16Array | null = null,
): Promise<FilterCount[]> {
  return (await sieve(filters, candidates, spec, ctx, removedBy)).counts;
}

export interface Sieved {
  counts: FilterCount[];
  stages: Stage[];
}

export async function sieve(
  filters: Parameters<typeof prepareStages>[0],
  candidates: Candidates,
  spec: RequestSpec,
  ctx: EngineContext,
  record: Uint16Array | null,
): Promise<Sieved> {
  const stages = await prepareStages(filters, spec, ctx);
  const removedBy = new Int32Array(stages.length);
  const counts: FilterCount[] = [];
  let start = candidates.count;
  for (let s = 0; s < stages.length; ) {
    const stage = stages[s];
    let run: Stage[];
    if (stage.state === PASS_ALL) run = [stage];
    else {
      const groups = groupsFor(stage, candidates);
      if (groups) {
        sieveGrouped(stage, groups, candidates, spec, ctx, removedBy, record);
        run = [stage];
      } else {
        run = genericRun(stages, s);
        sieveHostByHost(run, candidates, spec, ctx, removedBy, record);
      }
    }
    for (const done of run) {
      const end = start - removedBy[done.position];
      counts.push({ filter: done.filter.name, start, end, instance_index: ctx.index });
      if (end === 0) return { counts, stages };
      start = end;
    }
    s += run.length;
  }
  return { counts, stages };
}

/** The stage's host groups, or null when its verdict is not declared to depend on grouped values. */
function groupsFor(stage: Stage, candidates: Candidates): HostGroups | null {
  const grouping = groupingOf(stage);
  return grouping ? candidates.index.groups(grouping, stage.filter.name, candidates) : null;
}

function groupingOf(stage: Stage): HostGrouping | null {
  try {
    return stage.filter.groupedBy?.(stage.state) ?? null;
  } catch {
    // Only a speed hint: a filter that cannot say runs host by host, where its errors surface.
    return null;
  }
}

/** Stages from `s` on that run host by host (no grouping, not PASS_ALL), stopping at the next other. */
function genericRun(stages: readonly Stage[], s: number): Stage[] {
  const run = [stages[s]];
  for (let k = s + 1; k < stages.length; k++) {
    const next = stages[k];
    if (next.state === PASS_ALL || groupingOf(next)) break;
    run.push(next);
  }
  return run;
}

/** Every stage of `run` on one host before the next host (each host object is read once). */
function sieveHostByHost(
  run: readonly Stage[],
  c: Candidates,
  spec: RequestSpec,
  ctx: EngineContext,
  removedBy: Int32Array,
  record: Uint16Array | null,
): void {
  const { hosts, positions } = c;
  let kept = 0;
  let j = 0;
  let current = run[0];
  try {
    for (; j < c.count; j++) {
      const i = positions[j];
      const host = hosts[i];
      let passed = true;
      for (let k = 0; k < run.length; k++) {
        current = run[k];
        if (current.filter.check(host, spec, current.state, ctx) !== PASS) {
          removedBy[current.position]++;
          if (record !== null) record[i] = current.position + 1;
          passed = false;
          break;
        }
      }
      if (passed) positions[kept++] = i;
    }
  } catch (err) {
    throw wrap(current.filter.name, `failed on host ${hosts[positions[j]].host}`, err);
  }
  c.count = kept;
}

const UNKNOWN = 0;
const PASSED = 1;
const FAILED = 2;

/**
 * One stage over grouped hosts: each group's verdict is `check` on one of its hosts. With few
 * groups, every group is decided up front (on its first host in the fleet) and, when all pass, the
 * candidates are not even read; otherwise each candidate's verdict is a table read, and a group not
 * decided yet is decided on its first candidate met (so an error names the host it would name in
 * the host-by-host loop). Synchronous, so one verdict table serves every call.
 */
function sieveGrouped(
  stage: Stage,
  groups: HostGroups,
  c: Candidates,
  spec: RequestSpec,
  ctx: EngineContext,
  removedBy: Int32Array,
  record: Uint16Array | null,
): void {
  const { hosts, positions } = c;
  const { groupOf } = groups;
  const verdicts = verdictTable(groups.size);
  if (groups.size <= Math.max(EAGER_GROUPS, c.count >> 3)) {
    if (decideEveryGroup(stage, groups, hosts, spec, ctx, verdicts)) return;
    if (noCandidateFails(c, groups, verdicts)) return;
  }
  const n = c.count;
  let kept = 0;
  let j = 0;
  try {
    for (; j < n; j++) {
      const i = positions[j];
      const g = groupOf[i];
      let v = verdicts[g];
      if (v === UNKNOWN) {
        v = stage.filter.check(hosts[i], spec, stage.state, ctx) === PASS ? PASSED : FAILED;
        verdicts[g] = v;
      }
      if (v === PASSED) positions[kept++] = i;
      else if (record !== null) record[i] = stage.position + 1;
    }
  } catch (err) {
    throw wrap(stage.filter.name, `failed on host ${hosts[positions[j]].host}`, err);
  }
  removedBy[stage.position] += n - kept;
  c.count = kept;
}

/** Groups decided up front whatever the candidates count, when there are at most this many. */
const EAGER_GROUPS = 64;

/**
 * Decides every group in the verdict table from its first host in the fleet and returns true when
 * all pass. A group whose host raises stays undecided: if one of its hosts is a candidate, the
 * candidate loop asks again and reports the error on that candidate.
 */
function decideEveryGroup(
  stage: Stage,
  groups: HostGroups,
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  verdicts: Uint8Array,
): boolean {
  let allPass = true;
  for (let g = 0; g < groups.size; g++) {
    let v = UNKNOWN;
    try {
      v = stage.filter.check(hosts[groups.first[g]], spec, stage.state, ctx) === PASS ? PASSED : FAILED;
    } catch {
      // left undecided (see above)
    }
    verdicts[g] = v;
    if (v !== PASSED) allPass = false;
  }
  return allPass;
}

/**
 * True when no candidate can be in a group that did not pass: the pre-filter told which aggregate
 * memberships may hold candidates and which hosts never can (blocked), and no host of a group that
 * did not pass is both. (An availability zone filter after the pre-filter's zone rule, or
 * ComputeFilter when only the pre-filter's blocked hosts are disabled, keeps every candidate; this
 * answers that without reading them.)
 */
function noCandidateFails(c: Candidates, groups: HostGroups, verdicts: Uint8Array): boolean {
  const open = c.memberships;
  // Groups of the candidates alone: one that did not pass holds a candidate.
  if (open == null || groups.partial) return false;
  const { offsets, memberships } = c.index.openMemberships(groups, c.blocked?.() ?? null);
  // Only worth it while the lists are shorter than the candidates.
  if (memberships.length > c.count) return false;
  for (let g = 0; g < groups.size; g++) {
    if (verdicts[g] === PASSED) continue;
    for (let k = offsets[g]; k < offsets[g + 1]; k++) if (open[memberships[k]] === -1) return false;
  }
  return true;
}

let table = new Uint8Array(256);
function verdictTable(size: number): Uint8Array {
  if (table.length < size) table = new Uint8Array(Math.max(size, table.length * 2));
  table.fill(UNKNOWN, 0, size);
  return table;
}
