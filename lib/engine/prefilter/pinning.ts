import { RequestError } from '../../model/errors.js';
import type { Flavor } from '../../model/requestSpec.js';

type CpuPolicy = 'dedicated' | 'shared' | 'mixed';
const CPU_POLICIES: readonly string[] = ['dedicated', 'shared', 'mixed'];
const THREAD_POLICIES: readonly string[] = ['prefer', 'isolate', 'require'];

/** What Nova's `_translate_pinning_policies` adds to the unsuffixed request group. */
export interface PinningTranslation {
  /** Set for dedicated and mixed: PCPU replaces (part of) the VCPU request. */
  pcpus: number | null;
  /** Set for mixed only: the shared part of the guest's CPUs. */
  vcpus: number | null;
  /** `hw:cpu_thread_policy` require → HW_CPU_HYPERTHREADING required, isolate → forbidden. */
  hyperthreading: 'required' | 'forbidden' | null;
  /** True for `dedicated`: Nova then also asks Placement again with VCPU (hosts without PCPU inventory). */
  pinningRequested: boolean;
}

/**
 * Translates `hw:cpu_policy` / `hw_cpu_policy`, `hw:cpu_thread_policy` / `hw_cpu_thread_policy` and
 * `hw:emulator_threads_policy` into Placement resources and traits, with Nova's conflict rules.
 */
export function pinningTranslation(
  flavor: Flavor,
  image: Readonly<Record<string, string>>,
): PinningTranslation {
  const specs = flavor.extra_specs;
  const policy = cpuPolicy(specs['hw:cpu_policy'], image.hw_cpu_policy);
  const emulator = specs['hw:emulator_threads_policy'];
  if (emulator && emulator !== 'share' && emulator !== 'isolate') {
    throw new RequestError(
      `flavor extra spec "hw:emulator_threads_policy"="${emulator}": must be share or isolate`,
    );
  }
  const extra = emulator === 'isolate' ? 1 : 0;
  let pcpus: number | null = null;
  let vcpus: number | null = null;
  if (policy === 'dedicated') pcpus = flavor.vcpus + extra;
  if (policy === 'mixed') {
    const dedicated = mixedDedicatedCpus(flavor, image);
    pcpus = dedicated + extra;
    vcpus = flavor.vcpus - dedicated;
  }
  const thread = threadPolicy(specs['hw:cpu_thread_policy'], image.hw_cpu_thread_policy);
  const hyperthreading = thread === 'require' ? 'required' : thread === 'isolate' ? 'forbidden' : null;
  return { pcpus, vcpus, hyperthreading, pinningRequested: policy === 'dedicated' };
}

function cpuPolicy(flavorValue: string | undefined, imageValue: string | undefined): CpuPolicy | null {
  requireOneOf(flavorValue, CPU_POLICIES, 'flavor extra spec "hw:cpu_policy"');
  requireOneOf(imageValue, CPU_POLICIES, 'image property "hw_cpu_policy"');
  const conflict =
    (flavorValue === 'mixed' && imageValue === 'dedicated') ||
    (flavorValue === 'shared' && (imageValue === 'dedicated' || imageValue === 'mixed'));
  if (conflict) {
    throw new RequestError(
      `image property hw_cpu_policy=${imageValue} conflicts with flavor extra spec hw:cpu_policy=${flavorValue}`,
    );
  }
  return ((flavorValue || imageValue) as CpuPolicy | undefined) ?? null;
}

function threadPolicy(flavorValue: string | undefined, imageValue: string | undefined): string | null {
  requireOneOf(flavorValue, THREAD_POLICIES, 'flavor extra spec "hw:cpu_thread_policy"');
  requireOneOf(imageValue, THREAD_POLICIES, 'image property "hw_cpu_thread_policy"');
  if (!flavorValue || flavorValue === 'prefer') return flavorValue || imageValue || null;
  if (imageValue && imageValue !== flavorValue) {
    throw new RequestError(
      `image property hw_cpu_thread_policy=${imageValue} conflicts with flavor extra spec hw:cpu_thread_policy=${flavorValue}`,
    );
  }
  return flavorValue;
}

/** Dedicated CPUs of a `mixed` guest: `hw:cpu_dedicated_mask`, else the realtime mask when realtime is on. */
function mixedDedicatedCpus(flavor: Flavor, image: Readonly<Record<string, string>>): number {
  const specs = flavor.extra_specs;
  const realtime = /^(1|t|true|on|y|yes)$/i.test((specs['hw:cpu_realtime'] ?? '').trim());
  const [key, mask] = specs['hw:cpu_dedicated_mask']
    ? ['hw:cpu_dedicated_mask', specs['hw:cpu_dedicated_mask']]
    : realtime
      ? image.hw_cpu_realtime_mask
        ? ['hw_cpu_realtime_mask', image.hw_cpu_realtime_mask]
        : ['hw:cpu_realtime_mask', specs['hw:cpu_realtime_mask']]
      : ['hw:cpu_dedicated_mask', undefined];
  if (!mask) {
    throw new RequestError(
      'hw:cpu_policy=mixed needs hw:cpu_dedicated_mask (or hw:cpu_realtime with a realtime mask)',
    );
  }
  const all = flavor.vcpus - 1;
  const cpus = parseCpuSpec(mask.trim().startsWith('^') ? `0-${all},${mask}` : mask, key);
  const outside = [...cpus].some((c) => c < 0 || c > all);
  if (cpus.size === 0 || cpus.size >= flavor.vcpus || outside) {
    throw new RequestError(
      `"${key}"="${mask}": a mixed guest needs at least one dedicated and one shared CPU among its ${flavor.vcpus} vCPUs (0-${all})`,
    );
  }
  return cpus.size;
}

/** Nova's `parse_cpu_spec`: "1-4,^3,6" → {1, 2, 4, 6}. */
export function parseCpuSpec(spec: string, key: string): Set<number> {
  const include = new Set<number>();
  const exclude = new Set<number>();
  const bad = (rule: string) => new RequestError(`"${key}"="${spec}": invalid CPU set expression "${rule}"`);
  for (const raw of spec.split(',')) {
    const rule = raw.trim();
    if (!rule) continue;
    const reject = rule.startsWith('^');
    const body = reject ? rule.slice(1) : rule;
    const range = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(body);
    const single = /^\s*(\d+)\s*$/.exec(body);
    if (range) {
      const [start, end] = [Number(range[1]), Number(range[2])];
      if (start > end) throw bad(rule);
      for (let c = start; c <= end; c++) (reject ? exclude : include).add(c);
    } else if (single) (reject ? exclude : include).add(Number(single[1]));
    else throw bad(rule);
  }
  for (const c of exclude) include.delete(c);
  return include;
}

/** Throws naming `where` when `value` is set but not one of `allowed`. */
function requireOneOf(value: string | undefined, allowed: readonly string[], where: string): void {
  if (value && !allowed.includes(value))
    throw new RequestError(`${where}="${value}": must be one of ${allowed.join(', ')}`);
}
