/**
 * Noisy neighbours: VMs that, from a local time on and for a while, use far more CPU than their
 * service's load curve says (a runaway job, a crypto miner, a batch import). A scenario asks for a
 * number of them (picked at random among the big VMs, on different hosts, starting at random times
 * of the run unless `start` is given) or lists them one by one (on a host, of a kind of service).
 */
import * as z from 'zod';
import { type Issue, ValidationError } from '../model/errors.js';
import { formatPath } from '../model/path.js';
import { localTime } from './scenarioSchema.js';

export const NOISY_PATTERNS = ['steady', 'burst', 'ramp'] as const;
export type NoisyPattern = (typeof NOISY_PATTERNS)[number];

const behaviour = {
  /** steady: flat out; burst: 20 minutes on, 10 off; ramp: rising from its usual load to flat out. */
  pattern: z.enum(NOISY_PATTERNS).default('steady'),
  /** Share of its vCPUs it uses while noisy. */
  demand: z.number().gt(0).max(1).default(1),
  duration_minutes: z.number().int().positive().default(240),
};

const group = z
  .object({ count: z.number().int().nonnegative().max(1000), start: localTime.optional(), ...behaviour })
  .strict();

const entry = z
  .object({
    /** The host whose biggest VM turns noisy. */
    host: z.string().min(1).optional(),
    /** The kind of service (a key of `roles`) of the VM that turns noisy. */
    role: z.string().min(1).optional(),
    start: localTime.default('09:00'),
    ...behaviour,
  })
  .strict();

export type NoisyGroup = z.output<typeof group>;
export type NoisyEntry = z.output<typeof entry>;
export type NoisySpec = { kind: 'group'; group: NoisyGroup } | { kind: 'list'; entries: NoisyEntry[] };

export const DEFAULT_NOISY: NoisySpec = {
  kind: 'group',
  group: group.parse({ count: 10, duration_minutes: 300 }),
};

/**
 * The `noisy_neighbours` value: `{count, …}` or a list of `{host?, role?, start, …}`. Host and role
 * names are checked against the fleet, so a typo names its entry.
 */
export function parseNoisy(
  value: unknown,
  source: string,
  known: { hosts: ReadonlySet<string>; roles: ReadonlySet<string> },
): NoisySpec {
  if (value === undefined) return DEFAULT_NOISY;
  const at = (path: readonly PropertyKey[]) => formatPath(['noisy_neighbours', ...path]);
  const parsed = (Array.isArray(value) ? z.array(entry) : group).safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: at(i.path), message: i.message }));
    if (!Array.isArray(value) && (typeof value !== 'object' || value === null)) {
      issues.splice(0, issues.length, {
        path: 'noisy_neighbours',
        message:
          'must be {count, pattern?, demand?, start?, duration_minutes?} or a list of {host?, role?, start, …}',
      });
    }
    throw new ValidationError(source, issues);
  }
  if (!Array.isArray(parsed.data)) return { kind: 'group', group: parsed.data as NoisyGroup };
  const entries = parsed.data as NoisyEntry[];
  const issues: Issue[] = [];
  entries.forEach((e, i) => {
    if (e.host !== undefined && !known.hosts.has(e.host)) {
      issues.push({
        path: at([i, 'host']),
        message: `no host ${e.host} in the fleet; ${hostRange(known.hosts)}`,
      });
    }
    if (e.role !== undefined && !known.roles.has(e.role)) {
      issues.push({
        path: at([i, 'role']),
        message: `no role ${e.role} in the scenario (roles: ${[...known.roles].join(', ')})`,
      });
    }
  });
  if (issues.length > 0) throw new ValidationError(source, issues);
  return { kind: 'list', entries };
}

/** Share of its noisy demand the VM uses `minute` minutes after it turned noisy (0 when quiet). */
export function patternLevel(pattern: NoisyPattern, minute: number, duration: number): number {
  if (minute < 0 || minute >= duration) return 0;
  if (pattern === 'burst') return minute % 30 < 20 ? 1 : 0;
  if (pattern === 'ramp') return Math.min(1, (minute + 1) / Math.max(1, duration / 2));
  return 1;
}

function hostRange(hosts: ReadonlySet<string>): string {
  const names = [...hosts].sort();
  return names.length <= 6
    ? `hosts are ${names.join(', ')}`
    : `hosts are ${names.slice(0, 3).join(', ')} … ${names.at(-1)} (${names.length})`;
}
