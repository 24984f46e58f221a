import { pendingWeigher } from '../notImplemented.js';

export const ImagePropertiesWeigher = pendingWeigher(
  'ImagePropertiesWeigher',
  'nova.scheduler.weights.image_props.ImagePropertiesWeigher',
);
