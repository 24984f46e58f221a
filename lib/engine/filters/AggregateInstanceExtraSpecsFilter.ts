import { pendingFilter } from '../notImplemented.js';

export const AggregateInstanceExtraSpecsFilter = pendingFilter('AggregateInstanceExtraSpecsFilter');
