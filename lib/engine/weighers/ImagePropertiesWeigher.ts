import { isKnownImageProperty } from '../../model/imageMeta.js';
import { ALL_ZERO, defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';
import { parseOptions } from './parseOptions.js';

/** The requested image properties that can score, each with its ratio. */
interface WantedProperties {
  readonly keys: readonly string[];
  readonly values: readonly string[];
  readonly ratios: readonly number[];
}

/**
 * For each requested image property, the number of instances on the host whose image has the same
 * value, times the property's ratio from `image_props_weight_setting` (1 for every property when the
 * setting is empty, 0 for unlisted ones when it is not). A positive multiplier packs like images
 * together, a negative one spreads them.
 *
 * Off when the global `image_props_weight_multiplier` is 0, even if aggregates override it: Nova
 * checks the config value because the look-up is costly.
 */
export const ImagePropertiesWeigher = defineWeigher<WantedProperties>({
  name: 'ImagePropertiesWeigher',
  novaPath: 'nova.scheduler.weights.image_props.ImagePropertiesWeigher',
  prepare: (spec, ctx) => {
    const fs = ctx.config.filter_scheduler;
    if (fs.image_props_weight_multiplier === 0 || !spec.image) return ALL_ZERO;
    // Later entries win, as with Nova's dict(parse_options(...)).
    const setting = new Map(parseOptions(fs.image_props_weight_setting));
    const keys: string[] = [];
    const values: string[] = [];
    const ratios: number[] = [];
    for (const [key, value] of Object.entries(spec.image.properties)) {
      // Nova only sees properties its ImageMetaProps knows; others never match.
      if (!isKnownImageProperty(key)) continue;
      const ratio = setting.size > 0 ? (setting.get(key) ?? 0) : 1;
      if (ratio === 0) continue;
      keys.push(key);
      values.push(value);
      ratios.push(ratio);
    }
    return keys.length > 0 ? { keys, values, ratios } : ALL_ZERO;
  },
  weigh: (host, _spec, { keys, values, ratios }) => {
    let weight = 0;
    for (let i = 0; i < keys.length; i++) {
      let sharing = 0;
      for (const uuid in host.instances) {
        if (host.instances[uuid].image_properties?.[keys[i]] === values[i]) sharing++;
      }
      // Only shared properties add, so an infinite ratio never meets a zero count (inf × 0 = NaN).
      if (sharing > 0) weight += ratios[i] * sharing;
    }
    return weight;
  },
  ...configMultiplier('image_props_weight_multiplier'),
});
