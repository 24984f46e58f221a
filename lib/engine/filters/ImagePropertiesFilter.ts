import { RequestError } from '../../model/errors.js';
import type { HostState } from '../../model/hostState.js';
import { canonicalArch, canonicalHvType, canonicalVmMode } from '../../model/imageMeta.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';
import { parseJson } from '../json.js';
import { pyInt } from '../pyStrings.js';
import { hypervisorVersionText, parseVersionPredicate, type VersionPredicate } from '../versionPredicate.js';

interface State {
  /** Canonical hw_architecture (or the configured default), img_hv_type and hw_vm_mode; '' when unset. */
  wanted: [arch: string, hvType: string, vmMode: string];
  version: { text: string; predicate: VersionPredicate } | null;
  /** hw_maxphysaddr_bits; 0 when not requested. */
  bits: number;
}

const UNSUPPORTED = reject<State>((host, _spec, state) => {
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
  return `image requires ${asked}, but ${host.host} supports only ${supported.map((t) => `(${t.join(', ')})`).join(' ')}`;
});
const OTHER_HV_VERSION = reject<State>(
  (host, _spec, state) =>
    `image requires hypervisor version '${state.version?.text}' (img_hv_requested_version), but ${host.host} runs ${hypervisorVersionText(host.hypervisor_version ?? 0)}`,
);
const TOO_FEW_ADDRESS_BITS = reject<State>(
  (host, _spec, state) =>
    `image requires hw_maxphysaddr_bits >= ${state.bits}, but ${host.host}'s cpu_info reports maxphysaddr.bits = ${physAddrBits(host)}`,
);

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
  check: (host, _spec, state) => {
    if (!anyTupleMatches(host, state.wanted)) return UNSUPPORTED;
    if (!versionOk(host, state)) return OTHER_HV_VERSION;
    return maxPhysAddrOk(host, state) ? PASS : TOO_FEW_ADDRESS_BITS;
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
  const bits = pyInt(text);
  if (bits === undefined)
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

/**
 * cpu_info.maxphysaddr.bits, or 0 when unknown. Nova calls `.get()` on cpu_info, which is a JSON
 * string on real hosts, so Nova raises here (a bug); Placid parses the JSON instead.
 */
function physAddrBits(host: HostState): number {
  if (!host.cpu_info) return 0;
  const info = parseJson(host.cpu_info) as { maxphysaddr?: { bits?: unknown } | null } | undefined;
  const value = info?.maxphysaddr?.bits;
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
