import { pendingFilter } from '../notImplemented.js';

export const AggregateRamFilter = pendingFilter('AggregateRamFilter');
