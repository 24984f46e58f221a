import { RequestError } from '../../model/errors.js';
import type { HostState } from '../../model/hostState.js';
import { canonicalArch, canonicalHvType, canonicalVmMode } from '../../model/imageMeta.js';
import { defineFilter, PASS_ALL } from '../filter.js';

interface State {
  /** Canonical hw_architecture (or the configured default), img_hv_type and hw_vm_mode; '' when unset. */
  wanted: [arch: string, hvType: string, vmMode: string];
  version: { text: string; predicate: VersionPredicate } | null;
  /** hw_maxphysaddr_bits; 0 when not requested. */
  bits: number;
}

/**
 * Nova's ImagePropertiesFilter: when the image names an architecture, hypervisor type or VM mode,
 * the host must list a supported_instances tuple that contains each of them (membership, not
 * position), and then satisfy img_hv_requested_version and hw_maxphysaddr_bits.
 */
export const ImagePropertiesFilter = defineFilter<State>({
  name: 'ImagePropertiesFilter',
  runFilterOncePerRequest: true,
  runOnRebuild: true,
  prepare: (spec, ctx) => {
    const props = spec.image?.properties ?? {};
    const arch = props.hw_architecture ?? ctx.config.filter_scheduler.image_properties_default_architecture;
    const wanted: State['wanted'] = [
      arch ? canonicalArch(arch) : '',
      props.img_hv_type ? canonicalHvType(props.img_hv_type) : '',
      props.hw_vm_mode ? canonicalVmMode(props.hw_vm_mode) : '',
    ];
    // The version and address-width checks only run with one of these; alone they are ignored.
    if (!wanted[0] && !wanted[1] && !wanted[2]) return PASS_ALL;
    return { wanted, version: versionRequirement(props.img_hv_requested_version), bits: requiredBits(props) };
  },
  hostPasses: (host, _spec, state) =>
    anyTupleMatches(host, state.wanted) && versionOk(host, state) && maxPhysAddrOk(host, state),
  explain: (host, _spec, state) => {
    const [arch, hvType, vmMode] = state.wanted;
    const asked = [
      arch && `architecture ${arch}`,
      hvType && `hypervisor type ${hvType}`,
      vmMode && `VM mode ${vmMode}`,
    ]
      .filter(Boolean)
      .join(', ');
    const supported = host.supported_instances ?? [];
    if (supported.length === 0)
      return `image requires ${asked}, but ${host.host} reports no supported_instances`;
    if (!anyTupleMatches(host, state.wanted)) {
      return `image requires ${asked}, but ${host.host} supports only ${supported.map((t) => `(${t.join(', ')})`).join(' ')}`;
    }
    if (!versionOk(host, state)) {
      return `image requires hypervisor version '${state.version?.text}' (img_hv_requested_version), but ${host.host} runs ${hypervisorVersionText(host.hypervisor_version ?? 0)}`;
    }
    return `image requires hw_maxphysaddr_bits >= ${state.bits}, but ${host.host}'s cpu_info reports maxphysaddr.bits = ${physAddrBits(host)}`;
  },
});

function versionRequirement(text: string | undefined): State['version'] {
  if (!text) return null;
  const predicate = parseVersionPredicate(text);
  if (!predicate) {
    throw new RequestError(
      `image property img_hv_requested_version='${text}' is not a version predicate such as '>=6.0,<6.2'`,
    );
  }
  return { text, predicate };
}

function requiredBits(props: Readonly<Record<string, string>>): number {
  const text = props.hw_maxphysaddr_bits;
  if (!text) return 0;
  const bits = /^\s*[+-]?\d+\s*$/.test(text) ? Number.parseInt(text, 10) : Number.NaN;
  if (Number.isNaN(bits))
    throw new RequestError(`image property hw_maxphysaddr_bits='${text}' is not an integer`);
  return bits;
}

/**
 * Each wanted value must be in the tuple. Nova's host tuples are canonical (HVSpec); Placid's input
 * may not be, so a value that is not equal as given is compared canonicalised.
 */
function tupleMatches(t: readonly [string, string, string], wanted: State['wanted']): boolean {
  for (let i = 0; i < 3; i++) {
    const w = wanted[i];
    if (!w || t[0] === w || t[1] === w || t[2] === w) continue;
    if (canonicalArch(t[0]) !== w && canonicalHvType(t[1]) !== w && canonicalVmMode(t[2]) !== w) return false;
  }
  return true;
}

function anyTupleMatches(host: HostState, wanted: State['wanted']): boolean {
  const supported = host.supported_instances;
  if (!supported) return false;
  for (let i = 0; i < supported.length; i++) if (tupleMatches(supported[i], wanted)) return true;
  return false;
}

function versionOk(host: HostState, state: State): boolean {
  if (!state.version || !host.hypervisor_version) return true;
  return state.version.predicate(hypervisorVersionText(host.hypervisor_version));
}

function maxPhysAddrOk(host: HostState, state: State): boolean {
  if (!state.bits) return true;
  const bits = physAddrBits(host);
  return !bits || bits >= state.bits; // a host that does not report its width passes
}

/** Parsed per cpu_info string; hosts are reused across requests and cpu_info does not change. */
const bitsCache = new WeakMap<HostState, { raw: string; bits: number }>();

/**
 * cpu_info.maxphysaddr.bits, or 0 when unknown. Nova calls `.get()` on cpu_info, which is a JSON
 * string on real hosts, so Nova raises here (a bug); Placid parses the JSON instead.
 */
function physAddrBits(host: HostState): number {
  const raw = host.cpu_info;
  if (!raw) return 0;
  const cached = bitsCache.get(host);
  if (cached && cached.raw === raw) return cached.bits;
  let bits = 0;
  try {
    const value = (JSON.parse(raw) as { maxphysaddr?: { bits?: unknown } } | null)?.maxphysaddr?.bits;
    bits = typeof value === 'number' && Number.isFinite(value) ? value : 0;
  } catch {
    bits = 0;
  }
  bitsCache.set(host, { raw, bits });
  return bits;
}

/** A check of a hypervisor version string, e.g. '6.0.0'. */
type VersionPredicate = (version: string) => boolean;

/** oslo's convert_version_to_str: 6000000 -> '6.0.0', 5000 -> '5.0' (base-1000 groups). */
function hypervisorVersionText(version: number): string {
  const parts: number[] = [];
  for (let n = version; n > 0; n = Math.floor(n / 1000)) parts.unshift(n % 1000);
  return parts.join('.');
}

const COMPARISONS: Readonly<Record<string, (c: number) => boolean>> = {
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '==': (c) => c === 0,
  '!=': (c) => c !== 0,
  '>=': (c) => c >= 0,
  '>': (c) => c > 0,
};

/**
 * oslo's VersionPredicate: comma-separated comparisons, all of which must hold, between versions
 * ordered like Python package versions (PEP 440), so '==6.2' holds for 6.2.0. Undefined if malformed.
 */
function parseVersionPredicate(text: string): VersionPredicate | undefined {
  const checks: { holds: (c: number) => boolean; version: PackageVersion }[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*(<=|>=|<|>|!=|==)\s*(\S+)\s*$/.exec(part);
    const version = m ? parseVersion(m[2]) : undefined;
    if (!m || !version) return undefined;
    checks.push({ holds: COMPARISONS[m[1]], version });
  }
  return (versionText) => {
    const v = parseVersion(versionText);
    return v !== undefined && checks.every((c) => c.holds(compareVersions(v, c.version)));
  };
}

/** A PEP 440 version reduced to its sort key parts. */
interface PackageVersion {
  epoch: number;
  release: number[];
  /** [rank of a/b/rc, number]; Infinity / -Infinity rank for "none" per PEP 440 ordering. */
  pre: [number, number];
  post: number;
  dev: number;
  local: (number | string)[] | null;
}

const PEP440 =
  /^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(alpha|beta|preview|pre|rc|a|b|c)[-_.]?(\d+)?)?(?:-(\d+)|[-_.]?(post|rev|r)[-_.]?(\d+)?)?(?:[-_.]?(dev)[-_.]?(\d+)?)?(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$/i;
const PRE_RANK: Readonly<Record<string, number>> = {
  a: 0,
  alpha: 0,
  b: 1,
  beta: 1,
  c: 2,
  rc: 2,
  pre: 2,
  preview: 2,
};

function parseVersion(text: string): PackageVersion | undefined {
  const m = PEP440.exec(text.trim());
  if (!m) return undefined;
  const num = (s: string | undefined) => (s ? Number(s) : 0);
  const hasPost = m[5] !== undefined || m[6] !== undefined;
  const hasDev = m[8] !== undefined;
  const release = m[2].split('.').map(Number);
  while (release.length > 1 && release[release.length - 1] === 0) release.pop();
  return {
    epoch: num(m[1]),
    release,
    // A dev release without pre or post sorts before every pre-release of that version.
    pre: m[3] ? [PRE_RANK[m[3].toLowerCase()], num(m[4])] : [!hasPost && hasDev ? -Infinity : Infinity, 0],
    post: hasPost ? num(m[5] ?? m[7]) : -Infinity,
    dev: hasDev ? num(m[9]) : Infinity,
    local: m[10] ? m[10].split(/[-_.]/).map((s) => (/^\d+$/.test(s) ? Number(s) : s.toLowerCase())) : null,
  };
}

function compareVersions(a: PackageVersion, b: PackageVersion): number {
  return (
    a.epoch - b.epoch ||
    compareSeq(a.release, b.release, 0) ||
    compareSeq(a.pre, b.pre, 0) ||
    cmp(a.post, b.post) ||
    cmp(a.dev, b.dev) ||
    compareLocal(a.local, b.local)
  );
}

function cmp(a: number | string, b: number | string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/** Element-wise, the shorter sequence padded with `pad` (releases have their trailing zeros trimmed). */
function compareSeq(a: readonly number[], b: readonly number[], pad: number): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const c = cmp(a[i] ?? pad, b[i] ?? pad);
    if (c) return c;
  }
  return 0;
}

/** No local label sorts first; numeric segments sort after alphanumeric ones. */
function compareLocal(a: PackageVersion['local'], b: PackageVersion['local']): number {
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (typeof x !== typeof y) return typeof x === 'number' ? 1 : -1;
    const c = cmp(x, y);
    if (c) return c;
  }
  return a.length - b.length;
}
