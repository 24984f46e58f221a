/**
 * Which VMs turn noisy, and when, for one scenario: the `noisy_neighbours` spec applied to the
 * fleet layout. Group form: VMs of at least 16 vCPUs (the biggest there are, if none) on distinct
 * hosts, starting at `start` or at random in the run. List form: the biggest VM on the host and/or
 * of the kind named, starting at the first time the run reaches `start`.
 */
import { ValidationError } from '../model/errors.js';
import type { Layout, SimVm } from './layout.js';
import type { NoisyPattern } from './noisyNeighbours.js';
import { shuffled, stream } from './random.js';
import type { Scenario } from './scenario.js';
import { minuteOf } from './scenarioSchema.js';

export interface NoisyPlan {
  vm: number;
  /** Simulation minute it turns noisy (may be beyond the run: it never does). */
  startMinute: number;
  duration: number;
  pattern: NoisyPattern;
  demand: number;
}

const BIG_VCPUS = 16;

/** `local[m]` is the local minute of the day of simulation minute m. */
export function noisySchedule(scenario: Scenario, layout: Layout, local: Uint16Array): NoisyPlan[] {
  const random = stream(scenario.seed, 'noisy');
  const firstAt = (hhmm: string) => {
    const target = minuteOf(hhmm) % 1440;
    const m = local.indexOf(target);
    return m < 0 ? Number.POSITIVE_INFINITY : m;
  };
  const spec = scenario.noisy;
  if (spec.kind === 'group') {
    const g = spec.group;
    const biggest = Math.max(...layout.vms.map((v) => v.flavor.vcpus));
    const big = layout.vms.filter((v) => v.flavor.vcpus >= Math.min(BIG_VCPUS, biggest));
    const seenHosts = new Set<number>();
    const picked: SimVm[] = [];
    for (const vm of shuffled(random, big)) {
      if (picked.length >= g.count) break;
      if (seenHosts.has(vm.host)) continue;
      seenHosts.add(vm.host);
      picked.push(vm);
    }
    const latest = Math.max(0, scenario.minutes - g.duration_minutes);
    return picked.map((vm) => ({
      vm: vm.index,
      startMinute: g.start ? firstAt(g.start) : Math.floor(random() * (latest + 1)),
      duration: g.duration_minutes,
      pattern: g.pattern,
      demand: g.demand,
    }));
  }
  const taken = new Set<number>();
  return spec.entries.map((e, i) => {
    const host = e.host === undefined ? undefined : scenario.hostNames.indexOf(e.host);
    const fits = layout.vms.filter(
      (v) =>
        !taken.has(v.index) &&
        (host === undefined || v.host === host) &&
        (e.role === undefined || v.kind === e.role),
    );
    const vm = fits.sort((a, b) => b.flavor.vcpus - a.flavor.vcpus || a.index - b.index)[0];
    if (!vm) {
      const where = [e.host && `on host ${e.host}`, e.role && `of role ${e.role}`].filter(Boolean).join(' ');
      throw new ValidationError(scenario.source, [
        { path: `noisy_neighbours[${i}]`, message: `no VM ${where || 'left'} to turn noisy` },
      ]);
    }
    taken.add(vm.index);
    return {
      vm: vm.index,
      startMinute: firstAt(e.start),
      duration: e.duration_minutes,
      pattern: e.pattern,
      demand: e.demand,
    };
  });
}
