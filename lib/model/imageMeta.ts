import { ValidationError } from './errors.js';
import { pyStr } from './pyStr.js';

/**
 * Image properties as Nova's ImageMetaProps (`nova/objects/image_meta.py`) sees them: legacy names
 * renamed, fixed-choice values canonicalised, booleans and integers coerced. Nova drops unknown keys;
 * Placid keeps them (custom filters may read them), so Nova-compatible plugins must check
 * `isKnownImageProperty` before using a key.
 */

export type ImagePropertyKind = 'bool' | 'int' | 'string' | 'enum' | 'list';

const words = (s: string) => s.split(' ');
const FIELDS_BY_KIND: Record<ImagePropertyKind, string[]> = {
  bool: words(
    'hw_boot_menu hw_ephemeral_encryption hw_firmware_stateless hw_ipxe_boot hw_locked_memory hw_mem_encryption ' +
      'hw_pmu hw_qemu_guest_agent hw_time_hpet hw_vif_multiqueue_enabled hw_virtio_packed_ring img_bdm_v2 ' +
      'img_bittorrent img_cache_in_nova img_hide_hypervisor_id img_linked_clone img_use_agent os_require_quiesce ' +
      'os_skip_agent_inject_files_at_boot os_skip_agent_inject_ssh',
  ),
  int: words(
    'hw_cpu_cores hw_cpu_max_cores hw_cpu_max_sockets hw_cpu_max_threads hw_cpu_sockets hw_cpu_threads ' +
      'hw_device_id hw_maxphysaddr_bits hw_numa_nodes hw_redirected_usb_ports hw_serial_port_count hw_video_ram ' +
      'img_compression_level img_version',
  ),
  string: words(
    'hw_auto_disk_config hw_cpu_realtime_mask hw_disk_type hw_machine_type hw_mem_page_size img_owner_id ' +
      'img_root_device_name img_signature os_admin_user os_command_line os_distro ' +
      'hw_ephemeral_encryption_secret_uuid img_signature_certificate_uuid img_hv_requested_version',
  ),
  enum: words(
    'hw_architecture hw_emulation_architecture hw_cdrom_bus hw_disk_bus hw_floppy_bus hw_rescue_bus ' +
      'hw_cpu_policy hw_cpu_thread_policy hw_firmware_type hw_input_bus hw_mem_encryption_model ' +
      'hw_pci_numa_affinity_policy hw_pointer_model hw_rescue_device hw_rng_model hw_scsi_model hw_video_model ' +
      'hw_vif_model hw_viommu_model hw_vm_mode hw_watchdog_action hw_tpm_model hw_tpm_version ' +
      'hw_ephemeral_encryption_format hw_maxphysaddr_mode hw_sound_model hw_usb_model img_hv_type ' +
      'img_config_drive img_signature_hash_method img_signature_key_type os_secure_boot os_type',
  ),
  list: words('hw_numa_cpus hw_numa_mem img_block_device_mapping img_mappings traits_required'),
};

const KIND = new Map<string, ImagePropertyKind>(
  Object.entries(FIELDS_BY_KIND).flatMap(([kind, names]) => names.map((n) => [n, kind as ImagePropertyKind])),
);

/** Old property names and the ImageMetaProps field each one sets (the new name wins when both are given). */
const LEGACY_NAMES: Readonly<Record<string, string>> = {
  architecture: 'hw_architecture',
  owner_id: 'img_owner_id',
  vmware_disktype: 'hw_disk_type',
  vmware_image_version: 'img_version',
  vmware_ostype: 'os_distro',
  auto_disk_config: 'hw_auto_disk_config',
  ipxe_boot: 'hw_ipxe_boot',
  xenapi_device_id: 'hw_device_id',
  xenapi_image_compression_level: 'img_compression_level',
  vmware_linked_clone: 'img_linked_clone',
  xenapi_use_agent: 'img_use_agent',
  xenapi_skip_agent_inject_ssh: 'os_skip_agent_inject_ssh',
  xenapi_skip_agent_inject_files_at_boot: 'os_skip_agent_inject_files_at_boot',
  cache_in_nova: 'img_cache_in_nova',
  vm_mode: 'hw_vm_mode',
  bittorrent: 'img_bittorrent',
  mappings: 'img_mappings',
  block_device_mapping: 'img_block_device_mapping',
  bdm_v2: 'img_bdm_v2',
  root_device_name: 'img_root_device_name',
  hypervisor_version_requires: 'img_hv_requested_version',
  hypervisor_type: 'img_hv_type',
};

/** True for the field names of Nova's ImageMetaProps; other keys never reach Nova's filters. */
export function isKnownImageProperty(key: string): boolean {
  return KIND.has(key);
}

/** Python truthiness of a canonical property value: 'False', '0' (integers) and '' are false. */
export function isTruthyImageProperty(key: string, value: string | undefined): boolean {
  if (!value) return false;
  const kind = KIND.get(key);
  return !((kind === 'bool' && value === 'False') || (kind === 'int' && value === '0'));
}

const ARCH_ALIASES: Readonly<Record<string, string>> = {
  i386: 'i686',
  i486: 'i686',
  i586: 'i686',
  x86_32: 'i686', // a Xen naming mistake from Icehouse and earlier
  x86_32p: 'i686',
  amd64: 'x86_64',
};
const HV_ALIASES: Readonly<Record<string, string>> = { xapi: 'xen' };
const VM_MODE_ALIASES: Readonly<Record<string, string>> = { pv: 'xen', hv: 'hvm', baremetal: 'hvm' };
const VIF_ALIASES: Readonly<Record<string, string>> = {
  virtuale1000: 'e1000',
  virtuale1000e: 'e1000e',
  virtualpcnet32: 'pcnet',
  virtualsriovethernetcard: 'sriov',
  virtualvmxnet: 'vmxnet',
  virtualvmxnet3: 'vmxnet3',
};
const SCSI_ALIASES: Readonly<Record<string, string>> = { lsilogicsas: 'lsisas1068', paravirtual: 'vmpvscsi' };

function aliased(aliases: Readonly<Record<string, string>>): (value: string) => string {
  return (value) => {
    const lower = value.toLowerCase();
    return Object.hasOwn(aliases, lower) ? aliases[lower] : lower;
  };
}

/** Nova's Architecture.canonicalize: lower case, i386/i486/i586/x86_32/x86_32p → i686, amd64 → x86_64. */
export const canonicalArch = aliased(ARCH_ALIASES);
/** Nova's HVType.canonicalize: lower case, xapi → xen. */
export const canonicalHvType = aliased(HV_ALIASES);
/** Nova's VMMode.canonicalize: lower case, pv → xen, hv and baremetal → hvm. */
export const canonicalVmMode = aliased(VM_MODE_ALIASES);

/** Fixed-choice fields whose values Nova canonicalises; other enums must already be exact. */
const ENUM_CANONICAL: Readonly<Record<string, (value: string) => string>> = {
  hw_architecture: canonicalArch,
  hw_emulation_architecture: canonicalArch,
  img_hv_type: canonicalHvType,
  hw_vm_mode: canonicalVmMode,
  os_type: (v) => v.toLowerCase(),
  hw_vif_model: aliased(VIF_ALIASES),
  hw_scsi_model: aliased(SCSI_ALIASES),
};

const TRUE_STRINGS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);

type RawValue = string | number | boolean;

/** oslo strutils.bool_from_string (not strict): anything not a true-string is false. */
function pyBool(v: RawValue): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return TRUE_STRINGS.has(String(v).trim().toLowerCase()) ? 'True' : 'False';
}

/** Python's int(): strings of digits (whitespace allowed), numbers truncated, booleans as 0/1. */
function pyIntText(v: RawValue): string | undefined {
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') return Number.isFinite(v) ? String(Math.trunc(v)) : undefined;
  const s = v.trim();
  return /^[+-]?\d+$/.test(s) ? BigInt(s).toString() : undefined;
}

function coerce(key: string, value: RawValue, source: string): string {
  switch (KIND.get(key)) {
    case 'bool':
      return pyBool(value);
    case 'int': {
      const n = pyIntText(value);
      if (n === undefined) {
        throw new ValidationError(source, [
          { path: `image.properties.${key}`, message: `must be an integer, got ${JSON.stringify(value)}` },
        ]);
      }
      return n;
    }
    case 'enum': {
      const canonical = ENUM_CANONICAL[key];
      return canonical ? canonical(pyStr(value)) : pyStr(value);
    }
    default:
      return pyStr(value);
  }
}

/**
 * Canonicalises image properties the way Nova's ImageMetaProps.from_dict does before any filter
 * sees them: legacy names first, then current names (which win), `vmware_adaptertype` translated to
 * hw_disk_bus/hw_scsi_model, values coerced by field type. Unknown keys (`trait:*` included) are kept
 * as Python's str() of the value. Throws ValidationError for an integer field that is not an integer.
 */
export function canonicalImageProperties(
  raw: Record<string, RawValue>,
  source = 'request',
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [legacy, current] of Object.entries(LEGACY_NAMES)) {
    if (Object.hasOwn(raw, legacy)) out[current] = coerce(current, raw[legacy], source);
  }
  const adapter = raw.vmware_adaptertype;
  if (adapter === 'ide') out.hw_disk_bus = 'ide';
  else if (adapter) {
    out.hw_disk_bus = 'scsi';
    out.hw_scsi_model = coerce('hw_scsi_model', adapter, source);
  }
  for (const [key, value] of Object.entries(raw)) {
    if (Object.hasOwn(LEGACY_NAMES, key) || key === 'vmware_adaptertype') continue;
    out[key] = coerce(key, value, source);
  }
  return out;
}
