import type { NumaCell } from '../../model/hostState.js';
import type { InstanceNumaCell } from '../../model/requestSpec.js';
import type { MissReport } from './numaCell.js';

/**
 * The host cell's sibling sets (hyper-thread groups), each sorted. A dedicated CPU that is in no
 * set counts as a core of its own: libvirt always reports every CPU, hand-written input may not.
 */
export function siblingSets(host: NumaCell): number[][] {
  const sets = host.siblings.map((s) => [...s].sort((a, b) => a - b));
  const covered = new Set(sets.flat());
  for (const cpu of host.pcpuset) if (!covered.has(cpu)) sets.push([cpu]);
  return sets;
}

/** Nova's `NUMACell.has_threads`: some sibling set has more than one CPU. */
export function cellHasThreads(host: NumaCell): boolean {
  for (const s of host.siblings) if (s.length > 1) return true;
  return false;
}

/**
 * Nova's `_pack_instance_onto_cores`: the host CPUs the guest cell's dedicated CPUs are pinned to
 * (in the order of the sorted guest CPUs), or null when the thread policy cannot be met.
 * `isolate` returns one CPU per free core; consumption then takes the whole core.
 */
export function packOntoCores(host: NumaCell, guest: InstanceNumaCell, report?: MissReport): number[] | null {
  const wanted = guest.pcpuset.length;
  const need = `guest cell ${guest.id} needs ${wanted} dedicated CPUs`;
  const h = `host cell ${host.id}`;
  const sets = siblingSets(host);
  let threadsPerCore = 1;
  for (const s of sets) threadsPerCore = Math.max(threadsPerCore, s.length);
  const pinned = new Set(host.pinned_cpus);
  const dedicated = new Set(host.pcpuset);
  // bySize.get(n): the free parts of the cores that have at least n free threads.
  const bySize = new Map<number, number[][]>();
  for (const s of sets) {
    const free = s.filter((c) => dedicated.has(c) && !pinned.has(c));
    for (let n = 1; n <= free.length; n++) {
      const list = bySize.get(n);
      if (list) list.push(free);
      else bySize.set(n, [free]);
    }
  }
  const policy = guest.cpu_thread_policy;

  if (policy === 'isolate') {
    const whole = bySize.get(threadsPerCore);
    if (!whole) {
      report?.(`${need} on whole free cores (isolate)`, `${h} has no fully free core`);
      return null;
    }
    // Nova emulates isolate on hyper-threaded hosts only with the legacy vcpu_pin_set layout.
    if (threadsPerCore !== 1 && !sameSet(host.pcpuset, host.cpuset)) {
      report?.(
        `${need} on whole free cores (isolate)`,
        `${h} has hyper-threads and separate shared and dedicated CPU sets, where isolate cannot be honoured`,
      );
      return null;
    }
    const pins = takeThreads(1, whole, wanted);
    if (!pins) report?.(`${need} on whole free cores (isolate)`, `${h} has ${whole.length} fully free cores`);
    return pins;
  }

  if (policy === 'require' && threadsPerCore <= 1) {
    report?.(`${need} on thread siblings (require)`, `${h} has no hyper-threads`);
    return null;
  }
  // Most threads per core first: keeps guests on as few cores as possible.
  const sizes = [...bySize.keys()].sort((a, b) => b - a);
  for (const n of sizes) {
    if (policy === 'require' && n <= 1) continue;
    const pins = takeThreads(n, bySize.get(n)!, wanted);
    if (pins) return pins;
  }
  if (policy === 'require') {
    report?.(`${need} on thread siblings (require)`, `${h} cannot place them on free sibling threads`);
    return null;
  }
  // prefer (explicit or default): any free CPUs, core boundaries ignored.
  const all = (bySize.get(1) ?? []).flat();
  if (all.length >= wanted) return all.slice(0, wanted);
  report?.(need, `${h} has ${all.length} free`);
  return null;
}

/** Nova's `_get_pinning`: `threads` CPUs from each core in turn, when that gives enough CPUs. */
function takeThreads(threads: number, cores: number[][], wanted: number): number[] | null {
  if (threads * cores.length < wanted) return null;
  const out: number[] = [];
  for (const core of cores) {
    for (let i = 0; i < threads && out.length < wanted; i++) out.push(core[i]);
    if (out.length === wanted) break;
  }
  return out;
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  if (sa.size !== sb.size) return false;
  for (const x of sa) if (!sb.has(x)) return false;
  return true;
}
