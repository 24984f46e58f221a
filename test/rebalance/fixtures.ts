import { defaultRebalanceSettings, type RebalanceSettings } from '../../lib/rebalance/settings.js';
import type { HostObservation, VmObservation, VmSample } from '../../lib/rebalance/types.js';

/** The detector's clock in these tests. */
export const NOW = new Date('2026-12-01T12:00:00Z');

/** ISO time `minutes` before NOW (negative: after). */
export function minutesAgo(minutes: number): string {
  return new Date(NOW.getTime() - minutes * 60_000).toISOString();
}

export interface Reading {
  steal: number;
  load5: number;
  cpu?: number;
}

/** One sample per minute for the last `count` minutes (newest at NOW), values from `at(minutesAgo)`. */
export function minuteSamples(count: number, at: (ago: number) => Reading): VmSample[] {
  return Array.from({ length: count }, (_, i) => {
    const r = at(i);
    return { ts: minutesAgo(i), steal_percent: r.steal, load5: r.load5, cpu_percent: r.cpu ?? 50 };
  });
}

/** A 4-vCPU VM on cmp1 with ten minutes of the given constant reading. */
export function makeVm(overrides: Partial<VmObservation> & { reading?: Reading } = {}): VmObservation {
  const { reading = { steal: 20, load5: 6 }, ...rest } = overrides;
  return {
    uuid: 'vm-1',
    host: 'cmp1',
    last_migrated_at: null,
    flavor: { vcpus: 4 },
    samples: minuteSamples(10, () => reading),
    ...rest,
  };
}

/** A 16-CPU host in az1 with no samples of its own. */
export function makeHostObservation(overrides: Partial<HostObservation> = {}): HostObservation {
  return { host: 'cmp1', availability_zone: 'az1', vcpus_total: 16, samples: [], ...overrides };
}

/** Default settings with overrides. */
export function settingsWith(overrides: Partial<RebalanceSettings> = {}): RebalanceSettings {
  return { ...defaultRebalanceSettings(), ...overrides };
}
