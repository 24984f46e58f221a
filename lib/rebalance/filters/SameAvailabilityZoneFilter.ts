import { availabilityZones, inAvailabilityZone } from '../../engine/aggregates.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../../engine/filter.js';
import { moveContextOf } from '../moveContext.js';

const OTHER_ZONE = reject<string>(
  (host, _spec, zone, ctx) =>
    `host is in availability zone ${[...availabilityZones(host, ctx.config.DEFAULT.default_availability_zone, ctx.fleet.memberships)].join(', ')}; the VM stays in ${zone}`,
);

/**
 * Placid's rebalancer: a live migration stays in the VM's availability zone. Replicas are spread
 * across zones on purpose (two load-balanced replicas in one zone lose the zone together), so
 * this is hard, unlike Nova where a VM booted without a zone may move anywhere. A host's zones are
 * read as AvailabilityZoneFilter reads them. Requests that are not planned moves pass every host.
 */
export const SameAvailabilityZoneFilter = defineFilter<string>({
  name: 'SameAvailabilityZoneFilter',
  runFilterOncePerRequest: true,
  prepare: (spec) => moveContextOf(spec)?.vm.availabilityZone ?? PASS_ALL,
  check: (host, _spec, zone, ctx) =>
    inAvailabilityZone(host, zone, ctx.config.DEFAULT.default_availability_zone, ctx.fleet.memberships)
      ? PASS
      : OTHER_ZONE,
});
