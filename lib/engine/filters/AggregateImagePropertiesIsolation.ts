import type { Aggregate } from '../../model/hostState.js';
import { isKnownImageProperty, isTruthyImageProperty } from '../../model/imageMeta.js';
import type { Metadata } from '../aggregates.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';

interface State {
  /** The image's ImageMetaProps fields that are set (Python-truthy), as canonical strings. */
  props: ReadonlyMap<string, string>;
  /** Only aggregate keys starting with this count; null when no namespace is configured. */
  prefix: string | null;
  answers: WeakMap<readonly Aggregate[], boolean>;
}

const IMAGE_PROPERTY_EXCLUDED = reject<State>((host, _spec, state, ctx) => {
  const metadata = ctx.fleet.memberships.metadata(host);
  const key = firstConflict(metadata, state);
  if (key === undefined) return `image properties match ${host.host}'s aggregate metadata`;
  const allowed = [...(metadata.get(key) ?? [])].join(',');
  return `image property ${key}=${state.props.get(key)} is not among ${host.host}'s aggregate metadata values ${key}=${allowed}`;
});

/**
 * Nova's AggregateImagePropertiesIsolation: an image that sets a property named by a key of the
 * host's aggregate metadata must carry one of that key's (comma-split) values. Hosts whose
 * aggregates lack the key, and images lacking the property, pass. Only ImageMetaProps fields count
 * (Nova drops other keys), and values compare as canonical strings, so an image's `true` is `True`.
 */
export const AggregateImagePropertiesIsolation = defineFilter<State>({
  name: 'AggregateImagePropertiesIsolation',
  runFilterOncePerRequest: true,
  runOnRebuild: true,
  prepare: (spec, ctx) => {
    const props = new Map<string, string>();
    for (const [key, value] of Object.entries(spec.image?.properties ?? {})) {
      // Nova skips a property that is unset or falsy (False, 0, '').
      if (isKnownImageProperty(key) && isTruthyImageProperty(key, value)) props.set(key, value);
    }
    if (props.size === 0) return PASS_ALL;
    const {
      aggregate_image_properties_isolation_namespace: ns,
      aggregate_image_properties_isolation_separator: sep,
    } = ctx.config.filter_scheduler;
    return { props, prefix: ns ? ns + sep : null, answers: new WeakMap() };
  },
  check: (host, _spec, state, ctx) => {
    let answer = state.answers.get(host.aggregates);
    if (answer === undefined) {
      answer = firstConflict(ctx.fleet.memberships.metadata(host), state) === undefined;
      state.answers.set(host.aggregates, answer);
    }
    return answer ? PASS : IMAGE_PROPERTY_EXCLUDED;
  },
});

/** The first aggregate metadata key whose values exclude the image's value for that property. */
function firstConflict(metadata: Metadata, state: State): string | undefined {
  for (const [key, options] of metadata) {
    if (state.prefix !== null && !key.startsWith(state.prefix)) continue;
    const prop = state.props.get(key);
    if (prop !== undefined && !options.has(prop)) return key;
  }
  return undefined;
}
