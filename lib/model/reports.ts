/**
 * Report messages from agents: `{"schema_version": 1, "hypervisors": [...], "instances": [...]}`.
 * A message is accepted or rejected as a whole, so a rejected one can go to the dead-letter queue
 * with every problem listed (field path and what is wrong).
 */
import type * as z from 'zod';
import { type Issue, ValidationError } from './errors.js';
import { toHostState } from './hostSchema.js';
import type { HostState } from './hostState.js';
import {
  duplicateIssues,
  MAX_NESTING_DEPTH,
  reportTimeIssues,
  skewIssue,
  tooDeepPath,
} from './reportChecks.js';
import {
  type dataGapInput,
  type hostSampleInput,
  type hypervisorReportInput,
  type instanceReportFields,
  type instanceReportInput,
  type instanceSampleInput,
  MAX_MESSAGE_BYTES,
  REPORT_SCHEMA_VERSION,
  reportMessageInput,
  schemaVersionInput,
} from './reportSchema.js';
import { parseWith } from './schema.js';

export type HostSample = z.output<typeof hostSampleInput>;
export type InstanceSample = z.output<typeof instanceSampleInput>;
/** A stretch without usable samples (optional; see dataGapInput). */
export type DataGap = z.output<typeof dataGapInput>;

/** A validated hypervisor report: the engine's HostState plus the live fields of the report. */
export interface HypervisorReport {
  host: string;
  nodename: string;
  availability_zone: string;
  /** Canonical ISO-8601 (`toISOString()`); newer reports replace older ones. */
  reported_at: string;
  state: HostState;
  samples: HostSample[];
  gaps?: DataGap[];
}

/** A validated instance report; `nodename` defaults to `host`, unknown fields are kept. */
export type InstanceReport = Omit<z.output<typeof instanceReportFields>, 'nodename'> & {
  nodename: string;
  [field: string]: unknown;
};

export interface ReportMessage {
  schema_version: typeof REPORT_SCHEMA_VERSION;
  hypervisors: HypervisorReport[];
  instances: InstanceReport[];
}

/**
 * Parses and validates one message body. `now` is the receiver's clock (timestamps more than five
 * minutes ahead are rejected as clock skew); `source` names the message in errors.
 * @throws ValidationError listing every problem with its field path.
 * @example parseReportMessage(record.body, new Date(), `sqs:${record.messageId}`)
 */
export function parseReportMessage(body: string, now: Date, source = 'report message'): ReportMessage {
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > MAX_MESSAGE_BYTES) {
    fail(
      source,
      '',
      `is ${kib(bytes)} KiB; a message may be at most ${kib(MAX_MESSAGE_BYTES)} KiB (the SQS limit)`,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch (error) {
    fail(source, '', `is not JSON (${(error as Error).message})`);
  }
  return validateReportMessage(doc, now, source);
}

/** Validates an already parsed message document; see parseReportMessage. */
export function validateReportMessage(doc: unknown, now: Date, source = 'report message'): ReportMessage {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    fail(source, '', 'must be a JSON object with schema_version, hypervisors and instances');
  }
  const deep = tooDeepPath(doc);
  if (deep !== undefined) fail(source, deep, `is nested more than ${MAX_NESTING_DEPTH} levels deep`);
  const version = schemaVersionInput.safeParse((doc as Record<string, unknown>).schema_version);
  if (!version.success) fail(source, 'schema_version', version.error.issues[0].message);

  const parsed = parseWith(reportMessageInput, doc, source);
  const hypervisors = parsed.hypervisors.map(toHypervisorReport);
  const instances = parsed.instances.map(withNodename);
  const issues = messageIssues(hypervisors, instances, now);
  if (issues.length > 0) throw new ValidationError(source, issues);
  return { schema_version: REPORT_SCHEMA_VERSION, hypervisors, instances };
}

function withNodename(i: z.output<typeof instanceReportInput>): InstanceReport {
  return { ...i, nodename: i.nodename ?? i.host };
}

function toHypervisorReport(parsed: z.output<typeof hypervisorReportInput>): HypervisorReport {
  const { reported_at, samples, gaps, ...hostFields } = parsed;
  const state = toHostState(hostFields);
  return {
    host: state.host,
    nodename: state.nodename,
    availability_zone: parsed.availability_zone,
    reported_at,
    state,
    samples,
    ...(gaps ? { gaps } : {}),
  };
}

function messageIssues(hypervisors: HypervisorReport[], instances: InstanceReport[], now: Date): Issue[] {
  const issues: Issue[] = [];
  if (hypervisors.length + instances.length === 0) {
    issues.push({ path: '', message: 'carries no reports (hypervisors and instances are both empty)' });
  }
  issues.push(
    ...duplicateIssues(
      hypervisors,
      (h) => `${h.host}\u0000${h.nodename}`,
      (i) => `hypervisors[${i}]`,
      (h) => `host/nodename ${h.host}/${h.nodename}`,
    ),
    ...duplicateIssues(
      instances,
      (i) => i.uuid,
      (i) => `instances[${i}].uuid`,
      (i) => `instance uuid ${i.uuid}`,
    ),
  );
  hypervisors.forEach((h, i) => {
    issues.push(...reportTimeIssues(h, `hypervisors[${i}]`, now));
  });
  instances.forEach((inst, i) => {
    const migrated = skewIssue(`instances[${i}].last_migrated_at`, inst.last_migrated_at, now);
    issues.push(...reportTimeIssues(inst, `instances[${i}]`, now, migrated ? [migrated] : []));
  });
  return issues;
}

function fail(source: string, path: string, message: string): never {
  throw new ValidationError(source, [{ path, message }]);
}

function kib(bytes: number): string {
  return (bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1);
}
