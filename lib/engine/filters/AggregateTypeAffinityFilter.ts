import { pendingFilter } from '../notImplemented.js';

export const AggregateTypeAffinityFilter = pendingFilter('AggregateTypeAffinityFilter');
