import type { SchedulerConfig } from '../../config/options.js';
import type { RequestSpec } from '../../model/requestSpec.js';
import { flavorPlacementSpecs, imageRequiredTraits } from './extraSpecs.js';
import { pinningTranslation } from './pinning.js';

/** How a resource class's inventory is found on a host (numbers keep the per-host loop cheap). */
export const VCPU = 0;
export const MEMORY_MB = 1;
export const DISK_GB = 2;
/** Any other class: `host.inventories[rc]`. */
export const OTHER = 3;

export interface ResourceAmount {
  rc: string;
  amount: number;
  kind: number;
  /** The removal stage when a host cannot supply it, e.g. `Placement:MEMORY_MB`. */
  stage: string;
}

/** One GET /allocation_candidates query, flattened onto a single (root) resource provider. */
export interface PlacementQuery {
  resources: ResourceAmount[];
  required: string[];
  forbidden: string[];
  /** Where each trait demand came from, for explanations. */
  traitSources: ReadonlyMap<string, string>;
}

export interface PlacementRequest {
  /** The query; a second one is Nova's VCPU fallback for pinned guests (hosts without PCPU inventory). */
  queries: PlacementQuery[];
  /** Every required trait of the flavor, image and CPU translation (what isolate_aggregates keeps). */
  requiredTraits: ReadonlySet<string>;
}

const HYPERTHREADING = 'HW_CPU_HYPERTHREADING';
const ORDER = ['VCPU', 'PCPU', 'MEMORY_MB', 'DISK_GB'];
const KIND: Record<string, number> = { VCPU, MEMORY_MB, DISK_GB };

/**
 * Nova's `ResourceRequest.from_request_spec` for a flat compute node: extra-spec resources override the
 * flavor's VCPU / MEMORY_MB / DISK_GB (an amount of 0 drops the class), CPU pinning turns VCPU into
 * PCPU, and image `trait:X=required` properties join the flavor's traits. Groups are merged because a
 * flat host is the only provider every group can land on.
 */
export function placementRequest(spec: RequestSpec, config: SchedulerConfig): PlacementRequest {
  const primary = buildQuery(spec, true);
  const fallback =
    primary.pinningRequested && !config.workarounds.disable_fallback_pcpu_query
      ? buildQuery(spec, false)
      : null;
  return {
    queries: fallback ? [primary.query, fallback.query] : [primary.query],
    requiredTraits: new Set(primary.query.required),
  };
}

function buildQuery(spec: RequestSpec, translatePinning: boolean) {
  const { flavor } = spec;
  const image = spec.image?.properties ?? {};
  const specs = flavorPlacementSpecs(flavor.extra_specs);
  const sources = new Map<string, string>();
  for (const t of specs.required) sources.set(t, `flavor extra spec trait:${t}=required`);
  for (const t of specs.forbidden) sources.set(t, `flavor extra spec trait:${t}=forbidden`);
  const imageTraits = imageRequiredTraits(image);
  for (const t of imageTraits) if (!sources.has(t)) sources.set(t, `image property trait:${t}=required`);
  const required = new Set([...specs.required, ...imageTraits]);
  const forbidden = new Set(specs.forbidden);
  const unsuffixed = specs.groups.get('') ?? new Map<string, number>();
  specs.groups.set('', unsuffixed);

  const pinning = translatePinning ? pinningTranslation(flavor, image) : null;
  if (pinning?.vcpus != null) unsuffixed.set('VCPU', pinning.vcpus);
  if (pinning?.pcpus != null) unsuffixed.set('PCPU', pinning.pcpus);
  if (pinning?.hyperthreading) {
    (pinning.hyperthreading === 'required' ? required : forbidden).add(HYPERTHREADING);
    sources.set(HYPERTHREADING, 'the CPU thread policy (hw:cpu_thread_policy)');
  }

  const merged = new Map<string, number>();
  for (const group of specs.groups.values()) {
    for (const [rc, n] of group) merged.set(rc, (merged.get(rc) ?? 0) + n);
  }
  if (!merged.has('VCPU') && !merged.has('PCPU')) merged.set('VCPU', flavor.vcpus);
  if (!merged.has('MEMORY_MB')) merged.set('MEMORY_MB', flavor.memory_mb);
  if (!merged.has('DISK_GB')) {
    const root = spec.is_bfv ? 0 : flavor.root_gb;
    merged.set('DISK_GB', flavor.ephemeral_gb + Math.ceil(flavor.swap / 1024) + root);
  }
  const query: PlacementQuery = {
    resources: orderedAmounts(merged),
    required: [...required],
    forbidden: [...forbidden],
    traitSources: sources,
  };
  return { query, pinningRequested: pinning?.pinningRequested ?? false };
}

/** Zero amounts are dropped (Nova's strip_zeros); the familiar classes come first so reasons read well. */
function orderedAmounts(merged: Map<string, number>): ResourceAmount[] {
  const rcs = [...merged.keys()].sort((a, b) => rank(a) - rank(b));
  return rcs
    .filter((rc) => merged.get(rc)! > 0)
    .map((rc) => ({ rc, amount: merged.get(rc)!, kind: KIND[rc] ?? OTHER, stage: `Placement:${rc}` }));
}

function rank(rc: string): number {
  const i = ORDER.indexOf(rc);
  return i < 0 ? ORDER.length : i;
}
