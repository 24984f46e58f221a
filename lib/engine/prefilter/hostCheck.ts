import type { Aggregate, HostState } from '../../model/hostState.js';
import type { RequestSpec } from '../../model/requestSpec.js';
import { availabilityZones, inAvailabilityZone } from '../aggregates.js';
import type { EngineContext } from '../context.js';
import type { Fleet } from '../fleet.js';
import { type AggregateRule, AggregateVerdicts, explainAggregateRule, memberOfRules } from './aggregates.js';
import { forcedHostPosition, IN_TREE } from './forced.js';
import { imageTraitRules } from './imageTraits.js';
import { aggregateFilters, ZONE } from './requestFilters.js';
import { type PlacementQuery, placementRequest } from './resourceRequest.js';
import { type AmountsByKind, amountsByKind, ResourceFit } from './resources.js';
import { explainTrait, TraitVerdicts, traitRules } from './traits.js';

export const COMPUTE_STATUS = 'compute_status_filter';
export const NO_INVENTORY = 'Placement:inventory';

interface QueryCheck {
  query: PlacementQuery;
  amounts: AmountsByKind;
  traits: TraitVerdicts | null;
}

/**
 * One request's pre-filter, prepared once: the request filters' aggregate and trait conditions, the
 * forced target and the resource queries. `candidates` finds the hosts `stageOf` passes; `stageOf`
 * names the stage that removes a host; `explain` builds the reason for one removed host on demand.
 *
 * Checks run in this order, and the first failure names the stage: in_tree, aggregates
 * (require_tenant_aggregate, map_az_to_placement_aggregate, isolate_aggregates, member_of),
 * compute_status_filter, inventory, then per query: traits (image request filters, then the
 * flavor's and image's own) and resources. A host passes when any query (Nova's VCPU fallback
 * for pinned guests is a second query) fits.
 */
export class HostCheck {
  readonly forced: number;
  private readonly aggregates: AggregateVerdicts | null;
  private readonly zoneByHostField: string | null;
  private readonly disabledByGroup: Uint8Array | null;
  private readonly traitGroupOf: Int32Array | null;
  private readonly queries: QueryCheck[];
  private readonly resources: ResourceFit;
  /**
   * Aggregate-rule reasons by the host's aggregate list: equal lists are one shared array in a
   * fleet, and one list means one membership group, so one rule and one text. Without this an
   * explained decision over 20k hosts rendered the same few sentences 13k times.
   */
  private readonly aggregateReasons = new Map<readonly Aggregate[], string>();

  constructor(
    spec: RequestSpec,
    private readonly ctx: EngineContext,
    private readonly index: Fleet,
  ) {
    const config = ctx.config;
    const request = placementRequest(spec, config);
    const filters = aggregateFilters(spec, config, index, request.requiredTraits);
    this.forced = forcedHostPosition(spec, index);
    const aggregateRules = [...filters.rules, ...memberOfRules(spec.requested_destination)];
    this.aggregates = aggregateRules.length > 0 ? new AggregateVerdicts(aggregateRules, index) : null;
    this.zoneByHostField = filters.zoneByHostField;
    const imageRules = imageTraitRules(spec, config);
    this.queries = request.queries.map((query) => {
      const rules = traitRules(imageRules, query);
      const traits = rules.length > 0 ? new TraitVerdicts(rules, index) : null;
      const amounts = amountsByKind(query.resources);
      return { query, amounts, traits };
    });
    this.resources = new ResourceFit(config);
    // Hosts may report COMPUTE_STATUS_DISABLED themselves; that needs the (cached) trait index.
    const traits = index.traits;
    this.disabledByGroup = traits.anyDisabled ? traits.disabled : null;
    this.traitGroupOf = traits.anyDisabled ? traits.groupOf : null;
  }

  /** The stage that removes the host at position `i`, or null when it is a candidate. */
  stageOf(host: HostState, i: number): string | null {
    if (this.forced >= 0 && i !== this.forced) return IN_TREE;
    const rule = this.aggregates?.failing(i);
    if (rule) return rule.stage;
    if (this.zoneByHostField !== null && !this.inZone(host)) return ZONE;
    if (this.disabled(host, i)) return COMPUTE_STATUS;
    if (this.resources.notReady(host)) return NO_INVENTORY;
    let first: string | null = null;
    for (const query of this.queries) {
      const trait = query.traits?.failing(i);
      if (trait) {
        first ??= trait.stage;
        continue;
      }
      if (this.resources.fitsAll(host, query.amounts)) return null;
      first ??= this.resources.misfit(host, query.query.resources)?.stage ?? 'Placement';
    }
    return first;
  }

  /**
   * Every candidate, in fleet order: the hosts `stageOf` passes. Aggregate rules go first because
   * they usually remove the most (other zones), and they are decided per membership group, so the
   * other checks run only on the hosts of the groups that pass.
   */
  candidates(): HostState[] {
    const hosts = this.index.hosts;
    if (this.forced >= 0) {
      // in_tree: only the target can survive, so the other hosts need not be looked at.
      const target = hosts[this.forced];
      return this.stageOf(target, this.forced) === null ? [target] : [];
    }
    const out: HostState[] = [];
    const verdicts = this.aggregates?.verdicts ?? null;
    const groupOf = this.index.aggregates.groupOf;
    for (let i = 0; i < hosts.length; i++) {
      if (verdicts !== null && verdicts[groupOf[i]] !== -1) continue;
      if (this.stageOf(hosts[i], i) === null) out.push(hosts[i]);
    }
    return out;
  }

  /** Why the host at position `i` was removed, as a sentence an operator can act on. */
  explain(host: HostState, i: number): string {
    if (this.forced >= 0 && i !== this.forced) {
      const target = this.index.hosts[this.forced];
      return `the request targets ${target.host}/${target.nodename} (requested_destination or force_hosts/force_nodes), so only that node can be a candidate (in_tree)`;
    }
    const rule = this.aggregates?.failing(i);
    if (rule) return this.aggregateReason(rule, host);
    if (this.zoneByHostField !== null && !this.inZone(host)) {
      const fallback = this.ctx.config.DEFAULT.default_availability_zone;
      const zones = [...availabilityZones(host, fallback, this.ctx.fleet.memberships)].join(', ');
      const note = host.aggregates.length === 0 && host.availability_zone == null ? ' (the default)' : '';
      return `is in availability zone ${zones}${note}, not ${this.zoneByHostField} (no aggregate defines that zone, so the hosts' own availability_zone field decides)`;
    }
    if (this.disabled(host, i)) {
      const why = host.service.disabled_reason ? ` (${host.service.disabled_reason})` : '';
      return `nova-compute is disabled${why}; compute_status_filter forbids COMPUTE_STATUS_DISABLED`;
    }
    if (this.resources.notReady(host)) {
      return 'its compute record is not ready (total_usable_ram_mb and vcpus_total are 0), so it has no Placement inventory yet';
    }
    const [primary, fallback] = this.queries;
    const reason = this.explainQuery(primary, host, i);
    if (!fallback) return reason;
    return `${reason}; Nova's VCPU fallback query for pinned guests fails too: ${this.explainQuery(fallback, host, i)}`;
  }

  private aggregateReason(rule: AggregateRule, host: HostState): string {
    let reason = this.aggregateReasons.get(host.aggregates);
    if (reason === undefined) {
      reason = explainAggregateRule(rule, host);
      this.aggregateReasons.set(host.aggregates, reason);
    }
    return reason;
  }

  private explainQuery(q: QueryCheck, host: HostState, i: number): string {
    const trait = q.traits?.failing(i);
    if (trait) return explainTrait(trait);
    const misfit = this.resources.misfit(host, q.query.resources);
    return misfit ? this.resources.explain(host, misfit) : 'fits';
  }

  private inZone(host: HostState): boolean {
    const defaultZone = this.ctx.config.DEFAULT.default_availability_zone;
    return inAvailabilityZone(host, this.zoneByHostField!, defaultZone, this.ctx.fleet.memberships);
  }

  private disabled(host: HostState, i: number): boolean {
    if (host.service.disabled) return true;
    return this.disabledByGroup !== null && this.disabledByGroup[this.traitGroupOf![i]] === 1;
  }
}
