import { defineFilter, PASS, reject } from '../filter.js';
import { hintedUuids, runsAny } from './DifferentHostFilter.js';

const RUNS_NO_NAMED_INSTANCE = reject<readonly string[]>((host, _spec, uuids) => {
  const count = Object.keys(host.instances).length;
  const named = `${uuids.join(', ')} (same_host hint)`;
  if (count === 0) return `host runs no instances, so it runs none of ${named}`;
  return `none of the host's ${count} instances is among ${named}`;
});

/**
 * Passes hosts running at least one of the instances named by the `same_host` scheduler hint (one
 * uuid or a list); a host with no instances fails. Without the hint, or with an empty one, every
 * host passes.
 */
export const SameHostFilter = defineFilter<readonly string[]>({
  name: 'SameHostFilter',
  runFilterOncePerRequest: true,
  prepare: (spec) => hintedUuids(spec, 'same_host'),
  check: (host, _spec, uuids) => (runsAny(host, uuids) ? PASS : RUNS_NO_NAMED_INSTANCE),
});
