/** Schedule requests as the stage receives them: a request spec document that must carry its request id. */
import { type Issue, ValidationError } from '../model/errors.js';
import { identifierProblem } from '../model/identifiers.js';
import { parseRequestSpec } from '../model/requestSchema.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { parseJsonBody } from '../queue/jsonBody.js';
import type { CandidateRef, RefusedCandidate } from './advisory.js';

/**
 * Validates a request document (REQUEST.json's schema). Unlike the CLI, `request_id` is required:
 * it is what makes a redelivered request return its recorded decision instead of placing twice.
 * @throws ValidationError listing every problem with its field path.
 */
export function parseScheduleRequest(doc: unknown, source = 'schedule request'): RequestSpec {
  const issues: Issue[] = [];
  const id = (doc as { request_id?: unknown } | null)?.request_id;
  if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) {
    if (id === undefined) {
      issues.push({
        path: 'request_id',
        message: 'is required (a unique id per request; a redelivery with the same id is answered once)',
      });
    }
  }
  let spec: RequestSpec;
  try {
    spec = parseRequestSpec(doc, source);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(source, [...issues, ...error.issues]);
  }
  if (issues.length > 0) throw new ValidationError(source, issues);
  return spec;
}

/** Candidates per advisory request at most (a whole region's compute nodes fit easily). */
export const MAX_CANDIDATES = 100_000;

/**
 * A decision request: a request spec, and for an advisory decision (`advisory: true`) the
 * `candidates` to decide among. Without `advisory` the request is placed and claimed as always.
 */
export interface DecisionRequest {
  spec: RequestSpec;
  /** Present only for an advisory request. */
  candidates?: CandidateRef[];
  /** An advisory request that wants each eliminated candidate's filter and reason (slower). */
  explain?: boolean;
  /** Candidates whose names Placid refuses: answered as refused, the others decided as usual. */
  refused?: RefusedCandidate[];
  /** The caller's Nova release (`nova_release`, e.g. "26.2.2"): its weighers and defaults are used. */
  novaRelease?: string;
}

/** Longest `nova_release` taken (Nova's are like "26.2.2" or "31.1.0.dev12"). */
const MAX_RELEASE_LENGTH = 64;

/**
 * Validates a decision request: the schedule request's fields plus `advisory` and `candidates`.
 * @throws ValidationError listing every problem with its field path.
 */
export function parseDecisionRequest(doc: unknown, source = 'schedule request'): DecisionRequest {
  const fields =
    typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
  const issues = advisoryIssues(fields);
  let spec: RequestSpec;
  try {
    spec = parseScheduleRequest(doc, source);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(source, [...error.issues, ...issues]);
  }
  if (issues.length > 0) throw new ValidationError(source, issues);
  if (fields.advisory !== true) return { spec };
  const candidates: CandidateRef[] = [];
  const refused: RefusedCandidate[] = [];
  for (const c of fields.candidates as { host: string; nodename?: string }[]) {
    const ref = { host: c.host, nodename: c.nodename ?? c.host };
    const reason = nameRefusal(ref);
    if (reason) refused.push({ ...ref, reason });
    else candidates.push(ref);
  }
  const novaRelease = fields.nova_release as string | undefined;
  return { spec, candidates, refused, explain: fields.explain === true, novaRelease };
}

/** Why a candidate's host or node name cannot be taken as a name, or undefined. */
function nameRefusal(ref: CandidateRef): string | undefined {
  const host = identifierProblem(ref.host);
  if (host) return `host ${host}`;
  const node = ref.nodename === ref.host ? undefined : identifierProblem(ref.nodename);
  return node && `nodename ${node}`;
}

/** A message or HTTP body holding one decision request. */
export function parseDecisionBody(body: string, source = 'schedule request'): DecisionRequest {
  return parseDecisionRequest(parseJsonBody(body, source), source);
}

function advisoryIssues(fields: Record<string, unknown>): Issue[] {
  const { advisory, candidates, explain, nova_release: release } = fields;
  if (advisory !== undefined && typeof advisory !== 'boolean') {
    return [{ path: 'advisory', message: 'must be true or false' }];
  }
  if (advisory !== true) {
    const misplaced: Issue[] = [];
    if (candidates !== undefined) {
      misplaced.push({
        path: 'candidates',
        message: 'needs advisory: true (a placed request ranges over the whole fleet)',
      });
    }
    if (explain !== undefined) {
      misplaced.push({
        path: 'explain',
        message: 'needs advisory: true (a placed decision is always explained)',
      });
    }
    return misplaced;
  }
  if (release !== undefined && (typeof release !== 'string' || release.length > MAX_RELEASE_LENGTH)) {
    return [
      { path: 'nova_release', message: `must be a string of at most ${MAX_RELEASE_LENGTH} characters` },
    ];
  }
  if (explain !== undefined && typeof explain !== 'boolean') {
    return [{ path: 'explain', message: 'must be true or false' }];
  }
  if (!Array.isArray(candidates)) {
    return [
      {
        path: 'candidates',
        message: 'is required with advisory: true: a list of {host, nodename} to decide among',
      },
    ];
  }
  if (candidates.length > MAX_CANDIDATES) {
    return [{ path: 'candidates', message: `has ${candidates.length} entries; at most ${MAX_CANDIDATES}` }];
  }
  const issues: Issue[] = [];
  candidates.forEach((c, i) => {
    if (issues.length >= 10) return;
    const entry =
      typeof c === 'object' && c !== null && !Array.isArray(c) ? (c as Record<string, unknown>) : null;
    if (!entry) issues.push({ path: `candidates[${i}]`, message: 'must be an object {host, nodename}' });
    else {
      // A string Placid refuses as a name is answered as refused (nameRefusal), not a bad request.
      if (typeof entry.host !== 'string')
        issues.push({ path: `candidates[${i}].host`, message: 'must be a string' });
      if (entry.nodename !== undefined && typeof entry.nodename !== 'string')
        issues.push({ path: `candidates[${i}].nodename`, message: 'must be a string when given' });
    }
  });
  return issues;
}
