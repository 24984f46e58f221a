import { pendingFilter } from '../notImplemented.js';

export const AggregateImagePropertiesIsolation = pendingFilter('AggregateImagePropertiesIsolation');
