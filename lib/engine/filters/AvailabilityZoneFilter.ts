import { availabilityZones, inAvailabilityZone } from '../aggregates.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';

const OTHER_ZONE = reject<string>(
  (host, _spec, az, ctx) =>
    `host is in availability zone ${[...availabilityZones(host, ctx.config.DEFAULT.default_availability_zone, ctx.fleet.memberships)].join(', ')}, not ${az}`,
);

/**
 * Removed from Nova in 2023.2 (the `map_az_to_placement_aggregate` pre-filter does its work), kept
 * for configs that still name it. A host's zones are its aggregates' `availability_zone` metadata,
 * else its reported `availability_zone`, else `[DEFAULT] default_availability_zone`.
 */
export const AvailabilityZoneFilter = defineFilter<string>({
  name: 'AvailabilityZoneFilter',
  runFilterOncePerRequest: true,
  prepare: (spec) => spec.availability_zone ?? PASS_ALL,
  check: (host, _spec, az, ctx) =>
    inAvailabilityZone(host, az, ctx.config.DEFAULT.default_availability_zone, ctx.fleet.memberships)
      ? PASS
      : OTHER_ZONE,
});
