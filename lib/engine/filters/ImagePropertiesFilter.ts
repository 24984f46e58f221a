import { pendingFilter } from '../notImplemented.js';

export const ImagePropertiesFilter = pendingFilter('ImagePropertiesFilter');
