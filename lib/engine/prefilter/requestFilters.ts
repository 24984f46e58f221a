import type { SchedulerConfig } from '../../config/options.js';
import type { Aggregate } from '../../model/hostState.js';
import type { RequestSpec } from '../../model/requestSpec.js';
import { NoValidHostError } from '../errors.js';
import type { Fleet } from '../fleet.js';
import { aggregateId } from '../fleetIndex.js';
import type { AggregateRule } from './aggregates.js';

export const TENANT = 'require_tenant_aggregate';
export const ZONE = 'map_az_to_placement_aggregate';
export const ISOLATE = 'isolate_aggregates';

/** What Nova's aggregate-based request filters add to the Placement query. */
export interface AggregateFilters {
  rules: AggregateRule[];
  /**
   * Placid extension of map_az_to_placement_aggregate: when no aggregate carries the requested zone
   * but hosts report their own `availability_zone`, hosts are held to that field (Nova would not
   * narrow at all, because in Nova a host's zone only ever comes from aggregates).
   */
  zoneByHostField: string | null;
}

/**
 * require_tenant_aggregate, map_az_to_placement_aggregate and isolate_aggregates, in Nova's order,
 * over the aggregates the fleet's hosts belong to.
 */
export function aggregateFilters(
  spec: RequestSpec,
  config: SchedulerConfig,
  index: Fleet,
  requiredTraits: ReadonlySet<string>,
): AggregateFilters {
  const aggregates = index.aggregates.aggregates;
  const rules: AggregateRule[] = [];
  const tenant = tenantRule(spec, config, aggregates);
  if (tenant) rules.push(tenant);
  let zoneByHostField: string | null = null;
  const az = spec.availability_zone;
  if (az) {
    const zoned = aggregates.filter((a) => a.metadata.availability_zone === az);
    if (zoned.length > 0) rules.push(anyOf(ZONE, zoned, `of availability zone ${az}`));
    else if (index.hostsReportZones) zoneByHostField = az;
  }
  if (config.scheduler.enable_isolated_aggregate_filtering) {
    const isolated = aggregates.filter((a) => isolatedFrom(a, requiredTraits));
    if (isolated.length > 0) {
      const purpose = `isolate_aggregates (their trait:<NAME>=required metadata names a trait the request does not require)`;
      rules.push({ stage: ISOLATE, ids: new Set(isolated.map(aggregateId)), forbid: true, purpose });
    }
  }
  return { rules, zoneByHostField };
}

/**
 * Aggregates whose metadata maps a key starting with `filter_tenant_id` to the project. None found:
 * no restriction, unless `placement_aggregate_required_for_tenants`, which fails the request.
 */
function tenantRule(spec: RequestSpec, config: SchedulerConfig, aggregates: readonly Aggregate[]) {
  const s = config.scheduler;
  if (!s.limit_tenants_to_placement_aggregate) return null;
  const project = spec.project_id;
  const mine = project
    ? aggregates.filter((a) =>
        Object.entries(a.metadata).some(([k, v]) => k.startsWith('filter_tenant_id') && v === project),
      )
    : [];
  if (mine.length > 0) return anyOf(TENANT, mine, `of tenant ${project} (filter_tenant_id* metadata)`);
  if (s.placement_aggregate_required_for_tenants) {
    const who = project ? `tenant ${project}` : 'a request without project_id';
    throw new NoValidHostError(
      `No hosts available for ${who}: no aggregate has filter_tenant_id* metadata naming it, and ` +
        `[scheduler] placement_aggregate_required_for_tenants is set (require_tenant_aggregate).`,
    );
  }
  return null;
}

/** An aggregate with `trait:X=required` metadata for some X the request does not require. */
function isolatedFrom(a: Aggregate, requiredTraits: ReadonlySet<string>): boolean {
  for (const [key, value] of Object.entries(a.metadata)) {
    if (value === 'required' && key.startsWith('trait:') && !requiredTraits.has(key.slice(6))) return true;
  }
  return false;
}

function anyOf(stage: string, aggs: readonly Aggregate[], purpose: string): AggregateRule {
  return {
    stage,
    ids: new Set(aggs.map(aggregateId)),
    forbid: false,
    purpose,
    names: aggs.map((a) => a.name),
  };
}
