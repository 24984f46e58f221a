/**
 * A simulation scenario: read from YAML or JSON, validated, defaults filled in, and the settings
 * Placid runs with resolved (`[rebalance]` through parseRebalanceSettings, the workflow's through
 * parseWorkflowSettings). Every error names the file and the field, e.g.
 * `scenario.yaml: noisy_neighbours[1].host: no host cmp-az9-001 in the fleet; …`.
 *
 * Simulation defaults that differ from the service's: mode `auto` (the point is to watch Placid
 * act); blackout windows read in the scenario's time zone; and, because agents report every
 * `report_interval_minutes`, a sample may be up to that old and the newest minutes of the window are
 * often still missing: `stale_sample_minutes` and `min_coverage_percent` are relaxed to match
 * (unless the scenario sets them).
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { resolveConfig } from '../config/load.js';
import { ConfigError, ValidationError } from '../model/errors.js';
import { parseWith } from '../model/schema.js';
import { isValidTimeZone } from '../rebalance/blackout.js';
import { REBALANCE_OPTIONS } from '../rebalance/options.js';
import { parseRebalanceSettings, type RebalanceSettings } from '../rebalance/settings.js';
import { parseWorkflowSettings, type WorkflowSettings } from '../workflow/settings.js';
import type { ContentionModel } from './contention.js';
import { type NoisySpec, parseNoisy } from './noisyNeighbours.js';
import {
  type CurvePoint,
  type FailureRateSpec,
  type FlavorSpec,
  type HostSpec,
  type RoleSpec,
  scenarioInput,
} from './scenarioSchema.js';

export interface Scenario {
  /** Where it came from (the file), for errors found later. */
  source: string;
  name: string;
  seed: number;
  start: Date;
  minutes: number;
  timezone: string;
  reportIntervalMinutes: number;
  bucketMinutes: number;
  zones: string[];
  /** Host names, zone by zone in turn: cmp-az1-001, cmp-az2-001, … */
  hostNames: string[];
  host: HostSpec;
  vms: number;
  flavors: ReadonlyMap<string, FlavorSpec>;
  roles: RoleSpec[];
  loadCurve: CurvePoint[];
  demandNoise: number;
  /** How the world shares a host's CPU shortfall (contention.ts); the planner always predicts `proportional`. */
  contentionModel: ContentionModel;
  noisy: NoisySpec;
  rebalance: RebalanceSettings;
  workflow: WorkflowSettings;
  failures: FailureRateSpec;
}

/** Reads a scenario file: `.json` as JSON, anything else as YAML (which JSON also is). */
export async function loadScenario(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read scenario ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  let doc: unknown;
  try {
    doc = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(
      `${path}: not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  return parseScenario(doc ?? {}, path);
}

/** Validates a parsed scenario document; `source` names it in errors. */
export function parseScenario(doc: unknown, source = 'scenario'): Scenario {
  const s = parseWith(scenarioInput, doc, source);
  const fail = (path: string, message: string): never => {
    throw new ValidationError(source, [{ path, message }]);
  };
  if (!isValidTimeZone(s.timezone))
    fail('timezone', `unknown IANA time zone ${s.timezone} (e.g. Asia/Tokyo, UTC)`);
  const flavors = new Map(s.flavors.map((f) => [f.name, f]));
  if (flavors.size !== s.flavors.length) fail('flavors', 'two flavors have the same name');
  const roles = Object.entries(s.roles).map(([name, r]) => ({ ...r, name }));
  if (roles.length === 0) fail('roles', 'needs at least one role');
  for (const r of roles) {
    r.flavors.forEach((f, i) => {
      if (!flavors.has(f))
        fail(
          `roles.${r.name}.flavors[${i}]`,
          `unknown flavor ${f} (flavors: ${[...flavors.keys()].join(', ')})`,
        );
    });
  }
  const zones =
    typeof s.zones === 'number' ? Array.from({ length: s.zones }, (_, i) => `az${i + 1}`) : s.zones;
  if (new Set(zones).size !== zones.length) fail('zones', 'names a zone twice');
  const hostNames = Array.from({ length: s.hosts.count }, (_, i) => {
    const zone = zones[i % zones.length];
    return `cmp-${zone}-${String(Math.floor(i / zones.length) + 1).padStart(3, '0')}`;
  });
  const noisy = parseNoisy(s.noisy_neighbours, source, {
    hosts: new Set(hostNames),
    roles: new Set(roles.map((r) => r.name)),
  });
  const rebalance = rebalanceSettings(s.rebalance, s.timezone, s.report_interval_minutes, source);
  const workflow = parseWorkflowSettings(
    {
      max_migrations_per_host: rebalance.max_migrations_per_host,
      max_concurrent_migrations: rebalance.max_concurrent_migrations,
      blackout_windows: rebalance.blackout_windows.map((w) => w.text),
      timezone: rebalance.timezone,
      ...s.workflow,
    },
    `${source}: workflow`,
  );
  return {
    source,
    name: s.name,
    seed: s.seed,
    start: new Date(s.start),
    minutes: s.duration_minutes,
    timezone: s.timezone,
    reportIntervalMinutes: s.report_interval_minutes,
    bucketMinutes: s.bucket_minutes ?? Math.max(5, Math.ceil(s.duration_minutes / 96 / 5) * 5),
    zones,
    hostNames,
    host: s.hosts,
    vms: s.vms,
    flavors,
    roles,
    loadCurve: s.load_curve,
    demandNoise: s.demand_noise,
    contentionModel: s.contention_model,
    noisy,
    rebalance,
    workflow,
    failures: s.failures,
  };
}

function rebalanceSettings(
  options: Record<string, unknown>,
  timezone: string,
  reportInterval: number,
  source: string,
): RebalanceSettings {
  const sustain = Number(options.sustain_minutes ?? REBALANCE_OPTIONS.rebalance.sustain_minutes.default);
  // The newest report may be up to reportInterval - 1 minutes old, its last minute missing too.
  const missing = Math.max(0, reportInterval - 1);
  const coverage = Math.max(10, Math.floor(((sustain - missing) / sustain) * 100));
  const doc = {
    rebalance: {
      mode: 'auto',
      timezone,
      stale_sample_minutes: Math.max(3, reportInterval + 1),
      min_coverage_percent: Math.min(80, coverage),
      ...options,
    },
  };
  const resolved = resolveConfig(doc, `${source}: rebalance`, REBALANCE_OPTIONS);
  return parseRebalanceSettings(resolved.rebalance, source);
}
