import { defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

const configured = configMultiplier('build_failure_weight_multiplier');

/**
 * Recent failed builds. The raw weight is the count and the multiplier is negated, so hosts that keep
 * failing sink; the negation comes after the aggregate MIN, as in Nova (an override of 10 means -10).
 */
export const BuildFailureWeigher = defineWeigher({
  name: 'BuildFailureWeigher',
  novaPath: 'nova.scheduler.weights.compute.BuildFailureWeigher',
  weigh: (host) => host.failed_builds,
  multiplier: (host, ctx) => -configured.multiplier(host, ctx),
  uniformMultiplier: configured.uniformMultiplier,
});
