import { pendingFilter } from '../notImplemented.js';

export const AggregateNumInstancesFilter = pendingFilter('AggregateNumInstancesFilter');
