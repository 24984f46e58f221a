import type { SchedulerConfig } from '../../config/options.js';
import type { RequestSpec } from '../../model/requestSpec.js';
import type { TraitRule } from './traits.js';

export const IMAGE_TYPE = 'require_image_type_support';
export const IMAGE_METADATA = 'transform_image_metadata';

/**
 * The os-traits names these two request filters can produce. Nova checks each computed name against
 * os-traits and skips the filter (logging an error) when one is unknown; Placid does the same.
 */
const IMAGE_TYPES = new Set([
  'AKI',
  'AMI',
  'ARI',
  'ISO',
  'QCOW2',
  'RAW',
  'VDI',
  'VHD',
  'VHDX',
  'VMDK',
  'PLOOP',
]);
const KNOWN = new Set([
  ...['FDC', 'IDE', 'LXC', 'SATA', 'SCSI', 'USB', 'VIRTIO', 'UML', 'XEN'].map(
    (v) => `COMPUTE_STORAGE_BUS_${v}`,
  ),
  ...['BOCHS', 'CIRRUS', 'GOP', 'NONE', 'QXL', 'VGA', 'VIRTIO', 'VMVGA', 'XEN'].map(
    (v) => `COMPUTE_GRAPHICS_MODEL_${v}`,
  ),
  ...[
    'E1000',
    'E1000E',
    'LAN9118',
    'NETFRONT',
    'NE2K_PCI',
    'PCNET',
    'RTL8139',
    'SPAPR_VLAN',
    'SRIOV',
    'VIRTIO',
  ]
    .concat(['VMXNET', 'VMXNET3', 'IGB'])
    .map((v) => `COMPUTE_NET_VIF_MODEL_${v}`),
  ...['ALPHA', 'ARMV6', 'ARMV7', 'ARMV7B', 'AARCH64', 'CRIS', 'I686', 'IA64', 'LM32', 'M68K', 'MICROBLAZE']
    .concat(['MICROBLAZEEL', 'MIPS', 'MIPSEL', 'MIPS64', 'MIPS64EL', 'OPENRISC', 'PARISC', 'PARISC64', 'PPC'])
    .concat(['PPCLE', 'PPC64', 'PPC64LE', 'PPCEMB', 'S390', 'S390X', 'SH4', 'SH4EB', 'SPARC', 'SPARC64'])
    .concat(['UNICORE32', 'X86_64', 'XTENSA', 'XTENSAEB'])
    .map((v) => `HW_ARCH_${v}`),
  ...['AARCH64', 'PPC64LE', 'MIPSEL', 'S390X', 'RISCV64', 'X86_64'].map((v) => `COMPUTE_ARCH_${v}`),
  // os-traits names the vIOMMU traits COMPUTE_VIOMMU_MODEL_*, so Nova's COMPUTE_VIOMMU_<V> never matches.
]);

/** Image property → trait prefix, in Nova's order. */
const PREFIXES: readonly [string, string][] = [
  ['hw_cdrom_bus', 'COMPUTE_STORAGE_BUS'],
  ['hw_disk_bus', 'COMPUTE_STORAGE_BUS'],
  ['hw_video_model', 'COMPUTE_GRAPHICS_MODEL'],
  ['hw_vif_model', 'COMPUTE_NET_VIF_MODEL'],
  ['hw_architecture', 'HW_ARCH'],
  ['hw_emulation_architecture', 'COMPUTE_ARCH'],
  ['hw_viommu_model', 'COMPUTE_VIOMMU'],
];

/**
 * Traits the image-related request filters require on the root provider:
 * require_image_type_support (`COMPUTE_IMAGE_TYPE_<DISK_FORMAT>`, not for boot-from-volume) and
 * transform_image_metadata (`hw_*` properties, all or nothing).
 */
export function imageTraitRules(spec: RequestSpec, config: SchedulerConfig): TraitRule[] {
  const rules: TraitRule[] = [];
  const s = config.scheduler;
  const image = spec.image;
  const format = image?.disk_format?.toUpperCase();
  if (s.query_placement_for_image_type_support && !spec.is_bfv && format && IMAGE_TYPES.has(format)) {
    const source = `the image's disk_format ${image?.disk_format} ([scheduler] query_placement_for_image_type_support)`;
    rules.push({ stage: IMAGE_TYPE, trait: `COMPUTE_IMAGE_TYPE_${format}`, required: true, source });
  }
  if (s.image_metadata_prefilter && image) rules.push(...metadataRules(image.properties));
  return rules;
}

function metadataRules(properties: Readonly<Record<string, string>>): TraitRule[] {
  const rules: TraitRule[] = [];
  for (const [key, prefix] of PREFIXES) {
    const value = properties[key];
    if (value === undefined) continue;
    const trait = `${prefix}_${value.replaceAll('-', '_').toUpperCase()}`;
    if (!KNOWN.has(trait)) return [];
    const source = `image property ${key}=${value} ([scheduler] image_metadata_prefilter)`;
    rules.push({ stage: IMAGE_METADATA, trait, required: true, source });
  }
  return rules;
}
