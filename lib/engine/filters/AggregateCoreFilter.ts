import { pendingFilter } from '../notImplemented.js';

export const AggregateCoreFilter = pendingFilter('AggregateCoreFilter');
