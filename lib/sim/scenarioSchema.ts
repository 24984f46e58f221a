/**
 * The scenario file's shape (YAML or JSON), with the defaults of `placid simulate`: a simulated day
 * in Tokyo of 3 availability zones, 60 hypervisors and 1,000 VMs of five kinds of service, load
 * peaking at 09:00, 12:00 and 20:00, and ten noisy neighbours. `noisy_neighbours`, `rebalance`
 * and `workflow` are checked by scenario.ts (they need the fleet's names or their own validators).
 */
import * as z from 'zod';
import { CONTENTION_MODELS } from './contention.js';

const HHMM = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
export const localTime = z.string().regex(HHMM, 'must be a local time HH:MM (24-hour clock), e.g. 09:00');
const share = z.number().min(0, 'must be a share between 0 and 1').max(1, 'must be a share between 0 and 1');
const positiveInt = z.number().int().positive();
const name = z.string().trim().min(1).max(64);

export const curvePoint = z.object({ at: localTime, level: z.number().min(0).max(4) }).strict();

/** Demand level by local time of day: points linearly interpolated, wrapping at midnight. */
export const loadCurve = z
  .array(curvePoint)
  .min(1, 'needs at least one {at, level} point')
  .refine((points) => new Set(points.map((p) => minuteOf(p.at) % 1440)).size === points.length, {
    message: 'has two points at the same time of day',
  });

export const flavor = z
  .object({
    name,
    vcpus: positiveInt.max(256),
    ram_mb: positiveInt,
    /** Root disk; copied by a block migration when the VM is on local disk. */
    disk_gb: z.number().int().nonnegative(),
  })
  .strict();

export const role = z
  .object({
    /** Share of the VMs of this kind (weights need not sum to anything). */
    weight: z.number().positive(),
    flavors: z.array(name).min(1),
    /** VMs per application: each application is one Placid role (`web-03`), spread over hosts. */
    replicas: positiveInt.max(1000).default(8),
    /** Mean CPU use as a share of the VM's vCPUs at load level 1 (VMs vary around it). */
    utilisation: z.number().gt(0).max(1).default(0.35),
    /** Share of the VMs whose disk is local (a live migration copies it). */
    local_disk_share: share.default(0.3),
    /** Share of the VMs that are Kubernetes nodes (drained before a move). */
    kubernetes_share: share.default(0.5),
    /** Share of the VMs that run a Consul agent (maintenance mode during a move). */
    consul_share: share.default(0.5),
    /** This kind's own curve; the scenario's `load_curve` otherwise. */
    load_curve: loadCurve.optional(),
  })
  .strict();

export const DEFAULT_FLAVORS: z.input<typeof flavor>[] = [
  { name: 'm1.small', vcpus: 2, ram_mb: 4096, disk_gb: 20 },
  { name: 'm1.medium', vcpus: 4, ram_mb: 8192, disk_gb: 40 },
  { name: 'm1.large', vcpus: 8, ram_mb: 16384, disk_gb: 80 },
  { name: 'm1.xlarge', vcpus: 16, ram_mb: 32768, disk_gb: 160 },
  { name: 'r1.medium', vcpus: 4, ram_mb: 32768, disk_gb: 40 },
];

/** Busy in the day with peaks at 09:00, 12:00 and 20:00 local time, quiet at night. */
export const DEFAULT_LOAD_CURVE: z.input<typeof curvePoint>[] = [
  { at: '00:00', level: 0.35 },
  { at: '05:00', level: 0.25 },
  { at: '07:30', level: 0.6 },
  { at: '09:00', level: 1 },
  { at: '10:30', level: 0.7 },
  { at: '12:00', level: 1 },
  { at: '13:30', level: 0.7 },
  { at: '17:00', level: 0.65 },
  { at: '20:00', level: 1 },
  { at: '22:00', level: 0.6 },
];

export const DEFAULT_ROLES: Record<string, z.input<typeof role>> = {
  web: {
    weight: 35,
    flavors: ['m1.medium', 'm1.large'],
    utilisation: 0.28,
    local_disk_share: 0.1,
    kubernetes_share: 0.7,
    consul_share: 0.9,
  },
  db: {
    weight: 10,
    flavors: ['r1.medium', 'm1.large'],
    replicas: 3,
    utilisation: 0.28,
    local_disk_share: 0.8,
    kubernetes_share: 0,
    consul_share: 0.9,
  },
  worker: {
    weight: 25,
    flavors: ['m1.large', 'm1.medium'],
    utilisation: 0.28,
    local_disk_share: 0.2,
    kubernetes_share: 0.8,
    consul_share: 0.5,
  },
  cache: {
    weight: 15,
    flavors: ['m1.medium', 'r1.medium'],
    replicas: 4,
    utilisation: 0.17,
    local_disk_share: 0,
    kubernetes_share: 0.3,
    consul_share: 0.9,
  },
  batch: {
    weight: 15,
    flavors: ['m1.xlarge', 'm1.large'],
    replicas: 6,
    utilisation: 0.4,
    local_disk_share: 0.5,
    kubernetes_share: 0.2,
    consul_share: 0.2,
    // Batch jobs run at night, when the services are quiet.
    load_curve: [
      { at: '00:00', level: 0.9 },
      { at: '04:00', level: 1 },
      { at: '07:00', level: 0.3 },
      { at: '19:00', level: 0.3 },
      { at: '23:00', level: 0.8 },
    ],
  },
};

export const hostSpec = z
  .object({
    count: positiveInt.max(2000).default(60),
    /** Logical CPUs (Nova's vcpus_total): what the host can deliver, whatever its VMs demand. */
    vcpus: positiveInt.max(1024).default(32),
    ram_gb: positiveInt.default(384),
    disk_gb: positiveInt.default(2000),
    cpu_allocation_ratio: z.number().positive().max(64).default(4),
    ram_allocation_ratio: z.number().positive().max(4).default(1),
    disk_allocation_ratio: z.number().positive().max(4).default(1),
    reserved_ram_mb: z.number().int().nonnegative().default(512),
  })
  .strict();

export const failureRates = z
  .object({
    /** Share of live migrations that end in error part-way (rolled back). */
    migration: share.default(0),
    /** Share of Nova calls answered 503 (retried by the workflow). */
    nova_unavailable: share.default(0),
    /** Share of pods whose PodDisruptionBudget never allows the eviction (the drain fails). */
    eviction_blocked: share.default(0),
    /** Share of Consul calls that find the agent unreachable (retried). */
    consul_unreachable: share.default(0),
  })
  .strict();

export const scenarioInput = z
  .object({
    name: name.default('default'),
    seed: z.number().int().min(0).max(0xffffffff).default(1),
    /** Simulated start (ISO-8601 with a zone). */
    start: z.iso
      .datetime({ offset: true, error: 'must be an ISO-8601 time with a zone' })
      .default('2026-12-01T00:00:00+09:00'),
    duration_minutes: positiveInt.max(7 * 1440).default(1440),
    /** IANA zone of the load curves, noisy-neighbour starts and (by default) blackout windows. */
    timezone: z.string().min(1).default('Asia/Tokyo'),
    /** Agents send their per-minute samples this often (as a collector scraping every 5 minutes). */
    report_interval_minutes: positiveInt.max(60).default(5),
    /** Heat-map and series bucket; default: the run in at most 96 buckets. */
    bucket_minutes: positiveInt.max(1440).optional(),
    /** A number of zones (az1…azN) or their names. */
    zones: z.union([positiveInt.max(26), z.array(name).min(1)]).default(3),
    hosts: hostSpec.prefault({}),
    vms: positiveInt.max(50_000).default(1000),
    flavors: z.array(flavor).min(1).default(DEFAULT_FLAVORS),
    roles: z.record(name, role).prefault(DEFAULT_ROLES),
    load_curve: loadCurve.default(DEFAULT_LOAD_CURVE),
    /** Width of each VM's minute-to-minute demand noise (log-normal sigma; 0: none). */
    demand_noise: z.number().min(0).max(1).default(0.25),
    /** How the world shares a host's CPU shortfall: as the planner predicts, or unequally (contention.ts). */
    contention_model: z.enum(CONTENTION_MODELS).default('proportional'),
    noisy_neighbours: z.unknown().optional(),
    /** `[rebalance]` options (see the README); mode defaults to auto here. */
    rebalance: z.record(z.string(), z.unknown()).default({}),
    /** Workflow settings (lib/workflow/settings.ts). */
    workflow: z.record(z.string(), z.unknown()).default({}),
    failures: failureRates.prefault({}),
  })
  .strict();

export type CurvePoint = z.output<typeof curvePoint>;
export type FlavorSpec = z.output<typeof flavor>;
export type RoleSpec = z.output<typeof role> & { name: string };
export type HostSpec = z.output<typeof hostSpec>;
export type FailureRateSpec = z.output<typeof failureRates>;

/** Minutes after local midnight of "HH:MM". */
export function minuteOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}
