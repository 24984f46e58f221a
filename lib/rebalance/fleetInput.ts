/**
 * FLEET.json, the planner's input: `{"now", "hypervisors": [...], "instances": [...]}` with the
 * shapes of the ingest reports (lib/model/reports.ts), so what an agent sends can be planned on
 * as it is. `reported_at` may be left out (it defaults to `now`); optional `migrations` (past moves,
 * for cooldown and ping-pong) and `previously_suffering` (the last run's suffering VMs, for
 * hysteresis) complete it. Every error names the file and the field.
 */
import * as z from 'zod';
import { Fleet } from '../engine/fleet.js';
import { type Issue, ValidationError } from '../model/errors.js';
import { isoTimestamp, REPORT_SCHEMA_VERSION } from '../model/reportSchema.js';
import { type HypervisorReport, type InstanceReport, validateReportMessage } from '../model/reports.js';
import { parseWith } from '../model/schema.js';
import type { HostObservation, MigrationRecord } from './types.js';

export interface FleetInput {
  /** The planner's clock: detection windows end here, the plan is created here. */
  now: Date;
  hypervisors: HypervisorReport[];
  instances: InstanceReport[];
  /** Past moves: cooldown and no-return (ping-pong) read them. */
  history: MigrationRecord[];
  /** UUIDs that were suffering after the previous run (exit hysteresis); empty for a stateless run. */
  previouslySuffering: string[];
}

const FIELDS = ['now', 'hypervisors', 'instances', 'migrations', 'previously_suffering'];

const extras = z.object({
  migrations: z
    .array(
      z.object({
        instance_uuid: z.string().min(1),
        source_host: z.string().min(1),
        dest_host: z.string().min(1),
        at: isoTimestamp,
      }),
    )
    .default([]),
  previously_suffering: z.array(z.string()).default([]),
});

/**
 * Validates a parsed FLEET.json document.
 * @throws ValidationError naming `source` and each field path, e.g. `fleet.json: hypervisors[2].vcpus_total: …`
 * @example const fleet = parseFleetDocument(JSON.parse(text), 'fleet.json');
 */
export function parseFleetDocument(doc: unknown, source: string): FleetInput {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    fail(source, '', 'must be a JSON object with now, hypervisors and instances');
  }
  const record = doc as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => !FIELDS.includes(k));
  if (unknown.length > 0) {
    fail(source, unknown[0], `unknown field (a fleet file has ${FIELDS.join(', ')})`);
  }
  const now = isoTimestamp.safeParse(record.now);
  if (!now.success)
    fail(source, 'now', record.now === undefined ? 'is required' : now.error.issues[0].message);
  const nowIso = now.data;
  const issues: Issue[] = [];
  const hypervisors = reports(record.hypervisors, 'hypervisors', nowIso, issues);
  const instances = reports(record.instances, 'instances', nowIso, issues);
  if (issues.length > 0) throw new ValidationError(source, issues);
  const message = validateReportMessage(
    { schema_version: REPORT_SCHEMA_VERSION, hypervisors, instances },
    new Date(nowIso),
    source,
  );
  const more = parseWith(
    extras,
    { migrations: record.migrations, previously_suffering: record.previously_suffering },
    source,
  );
  return {
    now: new Date(nowIso),
    hypervisors: withInternedStates(message.hypervisors, message.instances),
    instances: message.instances,
    history: more.migrations,
    previouslySuffering: more.previously_suffering,
  };
}

/** The report list at `field`, each object given `reported_at: now` when it has none. */
function reports(value: unknown, field: string, now: string, issues: Issue[]): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    issues.push({ path: field, message: 'must be an array' });
    return [];
  }
  return value.map((item) =>
    item !== null && typeof item === 'object' && !Array.isArray(item) && !('reported_at' in item)
      ? { ...item, reported_at: now }
      : item,
  );
}

/**
 * The reports with host states laid out once for the engine (Fleet.from), each listing the VMs
 * reported on it in `instances` (server-group filters look there): a planner run then copies only
 * the hosts its moves change.
 */
export function withInternedStates(
  hypervisors: readonly HypervisorReport[],
  instances: readonly InstanceReport[],
): HypervisorReport[] {
  const onHost = new Map<string, string[]>();
  for (const vm of instances) {
    const list = onHost.get(vm.host);
    if (list) list.push(vm.uuid);
    else onHost.set(vm.host, [vm.uuid]);
  }
  const states = hypervisors.map(({ state }) => {
    const missing = (onHost.get(state.host) ?? []).filter((uuid) => !Object.hasOwn(state.instances, uuid));
    if (missing.length === 0) return state;
    const added = Object.fromEntries(missing.map((uuid) => [uuid, { uuid }]));
    return { ...state, instances: { ...state.instances, ...added } };
  });
  const interned = Fleet.from(states).hosts;
  return hypervisors.map((h, i) => ({ ...h, state: interned[i] }));
}

/** The detector's view of a hypervisor report. */
export function hostObservation(report: HypervisorReport): HostObservation {
  return {
    host: report.host,
    availability_zone: report.availability_zone,
    vcpus_total: report.state.vcpus_total,
    samples: report.samples,
  };
}

function fail(source: string, path: string, message: string): never {
  throw new ValidationError(source, [{ path, message }]);
}
