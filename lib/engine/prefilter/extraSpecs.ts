import { RequestError } from '../../model/errors.js';
import { pyInt } from '../pyStrings.js';

/** `resources[$S]:$RC` and `trait[$S]:$NAME` flavor extra specs (Nova's ResourceRequest.XS_KEYPAT). */
const KEY = /^(resources|trait)([a-zA-Z0-9_-]{1,64})?:(.*)$/s;
const CUSTOM = /^CUSTOM_[A-Z0-9_]+$/;
const TRAIT_NAME = /^[A-Z0-9_]+$/;

/** os-resource-classes STANDARDS: the classes Nova's API accepts besides CUSTOM_*. */
const STANDARD_CLASSES = new Set([
  'VCPU',
  'MEMORY_MB',
  'DISK_GB',
  'PCI_DEVICE',
  'SRIOV_NET_VF',
  'NUMA_SOCKET',
  'NUMA_CORE',
  'NUMA_THREAD',
  'NUMA_MEMORY_MB',
  'IPV4_ADDRESS',
  'VGPU',
  'VGPU_DISPLAY_HEAD',
  'NET_BW_EGR_KILOBIT_PER_SEC',
  'NET_BW_IGR_KILOBIT_PER_SEC',
  'PCPU',
  'MEM_ENCRYPTION_CONTEXT',
  'FPGA',
  'PGPU',
  'NET_PACKET_RATE_KILOPACKET_PER_SEC',
  'NET_PACKET_RATE_EGR_KILOPACKET_PER_SEC',
  'NET_PACKET_RATE_IGR_KILOPACKET_PER_SEC',
]);

/** The Placement part of a flavor's extra specs. */
export interface FlavorPlacementSpecs {
  /** Resources per request group; '' is the unsuffixed group. Amounts of 0 are kept (they override). */
  groups: Map<string, Map<string, number>>;
  required: Set<string>;
  forbidden: Set<string>;
}

/**
 * Reads `resources[$S]:$RC=N` and `trait[$S]:$NAME=required|forbidden`. Nova's API rejects malformed
 * keys and values when the flavor is saved; Placid gets flavors inline, so it rejects them here.
 */
export function flavorPlacementSpecs(extraSpecs: Readonly<Record<string, string>>): FlavorPlacementSpecs {
  const out: FlavorPlacementSpecs = { groups: new Map(), required: new Set(), forbidden: new Set() };
  for (const [key, value] of Object.entries(extraSpecs)) {
    const m = KEY.exec(key);
    if (!m) continue;
    const [, prefix, suffix = '', name] = m;
    if (prefix === 'resources') addResource(out, suffix, name, key, value);
    else addTrait(out, name, key, value);
  }
  return out;
}

function addResource(out: FlavorPlacementSpecs, group: string, rc: string, key: string, value: string): void {
  if (!STANDARD_CLASSES.has(rc) && !CUSTOM.test(rc)) {
    throw new RequestError(
      `flavor extra spec "${key}": "${rc}" is not a resource class (use a standard class such as VCPU, PCPU or MEMORY_MB, or CUSTOM_<NAME> in upper case)`,
    );
  }
  const amount = pyInt(value);
  if (amount === undefined || amount < 0) {
    throw new RequestError(
      `flavor extra spec "${key}"="${value}": the amount must be a non-negative integer`,
    );
  }
  let resources = out.groups.get(group);
  if (!resources) {
    resources = new Map();
    out.groups.set(group, resources);
  }
  resources.set(rc, amount);
}

function addTrait(out: FlavorPlacementSpecs, name: string, key: string, value: string): void {
  if (!TRAIT_NAME.test(name)) {
    throw new RequestError(
      `flavor extra spec "${key}": "${name}" is not a trait name (upper case letters, digits and '_')`,
    );
  }
  if (value === 'required') out.required.add(name);
  else if (value === 'forbidden') out.forbidden.add(name);
  else throw new RequestError(`flavor extra spec "${key}"="${value}": must be "required" or "forbidden"`);
}

/** Image properties `trait:NAME=required` (Nova's ImageMetaProps.traits_required; other values are ignored). */
export function imageRequiredTraits(properties: Readonly<Record<string, string>> | undefined): string[] {
  const out: string[] = [];
  if (!properties) return out;
  for (const [key, value] of Object.entries(properties)) {
    if (key.startsWith('trait:') && value === 'required') out.push(key.slice(6));
  }
  return out;
}
