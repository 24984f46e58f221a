import { pendingFilter } from '../notImplemented.js';

export const AggregateMultiTenancyIsolation = pendingFilter('AggregateMultiTenancyIsolation');
