import { pyStr } from './schema.js';

/**
 * Canonicalises image properties the way Nova's ImageMetaProps does before any filter sees them.
 * Placeholder: renames legacy keys only (see the image-properties work for the full rules).
 */
const LEGACY_NAMES: Record<string, string> = {
  architecture: 'hw_architecture',
  hypervisor_type: 'img_hv_type',
  vm_mode: 'hw_vm_mode',
  hypervisor_version_requires: 'img_hv_requested_version',
};

export function canonicalImageProperties(
  raw: Record<string, string | number | boolean>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) out[LEGACY_NAMES[k] ?? k] = pyStr(v);
  return out;
}
