import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';

interface State {
  isolatedHosts: ReadonlySet<string>;
  /** Whether a passing host must be in `isolated_hosts` (true) or outside it (false). */
  wantIsolated: boolean;
  image: string | null;
}

const ISOLATION_MISMATCH = reject<State>((host, _spec, state) =>
  state.wantIsolated
    ? `image ${state.image} is in isolated_images, so it may only run on isolated_hosts ` +
      `(${[...state.isolatedHosts].join(', ') || 'none configured'}); ${host.host} is not one of them`
    : `${host.host} is in isolated_hosts and restrict_isolated_hosts_to_isolated_images is true; ` +
      `image ${state.image ?? '(none)'} is not in isolated_images`,
);

/**
 * Keeps `[filter_scheduler] isolated_images` on `isolated_hosts`. With
 * `restrict_isolated_hosts_to_isolated_images` (default), it also keeps every other image off those
 * hosts; without it, other images may use them too. Runs on rebuilds, as the image may change.
 *
 * | isolated_images | image isolated | restrict | passes when the host is |
 * |---|---|---|---|
 * | empty | - | true | not isolated |
 * | empty | - | false | anything |
 * | set | yes | either | isolated |
 * | set | no | true | not isolated |
 * | set | no | false | anything |
 */
export const IsolatedHostsFilter = defineFilter<State>({
  name: 'IsolatedHostsFilter',
  runFilterOncePerRequest: true,
  runOnRebuild: true,
  prepare: (spec, ctx) => {
    const fs = ctx.config.filter_scheduler;
    const isolatedHosts = new Set(fs.isolated_hosts);
    const restrict = fs.restrict_isolated_hosts_to_isolated_images;
    // A volume-backed instance may have no image id; it is then not an isolated image.
    const image = spec.image?.id ?? null;
    const imageIsolated = image !== null && fs.isolated_images.includes(image);
    if (imageIsolated) return { isolatedHosts, wantIsolated: true, image };
    if (!restrict || isolatedHosts.size === 0) return PASS_ALL;
    return { isolatedHosts, wantIsolated: false, image };
  },
  check: (host, _spec, state) =>
    state.isolatedHosts.has(host.host) === state.wantIsolated ? PASS : ISOLATION_MISMATCH,
});
